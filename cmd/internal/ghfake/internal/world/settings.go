package world

import "slices"

// Protection is the protection of one base branch and the repository's merge settings.
type Protection struct {
	RequiredReviews int      // approving reviews by people with write access
	RequiredChecks  []string // check runs or status contexts that must succeed on the head
	Strict          bool     // the head must contain the base's head
	MergeMethods    []string // allowed merge methods; none listed: all
	MergeQueue      bool     // merges go through the merge queue only
	// CodeOwnerReviews: each changed file that CODEOWNERS (on the base branch) gives owners
	// needs an approving review by one of them.
	CodeOwnerReviews bool
	LinearHistory    bool // no merge commits: a pull request merges by squash or rebase only
	// ConversationResolution: every review conversation must be resolved before a merge.
	ConversationResolution bool
	// PushAllowances, when not empty, are the only ones who may push, and so merge, into the
	// branch: logins, apps (`name[bot]`) and teams (`org/slug`).
	PushAllowances []string
}

type RepoSettings struct {
	UnknownReads int
	Protection   map[string]*Protection
}

// MergeCalc is where GitHub is in computing a pull request's mergeability: for which head and
// base, how many more reads answer UNKNOWN, and the request that read it last (every field a
// request reads gives one answer).
type MergeCalc struct {
	Key     string
	Left    int
	LastReq any
	Unknown bool
}

// repoJSON is a repository object (REST repos/get and every webhook's repository). Keys the
// example has only for templates (template_repository) and for organization-owned repositories
// (organization) are left out: the fake's repositories are neither. A fork says "fork": true;
// repos/get adds its parent and source.
// allowsMethod is the repository's setting for a merge method. The fake keeps one list of
// merge methods, on a branch's protection; GitHub's settings are the repository's, so the
// default branch's list stands for them (every method when it lists none).
func (r *Repo) AllowsMethod(method string) bool {
	p := r.Settings.Protection[r.DefaultBranch]
	return p == nil || len(p.MergeMethods) == 0 || slices.Contains(p.MergeMethods, method)
}

// SetUnknownReads makes mergeable UNKNOWN for the first n reads of a pull request of repoName
// after it is opened or its head or base moves, as GitHub answers until it has computed it.
func (s *Git) SetUnknownReads(repoName string, n int) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	r.Settings.UnknownReads = n
	for _, is := range r.Issues {
		is.Calc = MergeCalc{} // computed again, under the new setting
	}
}

// SetProtection protects branch of repoName.
func (s *Git) SetProtection(repoName, branch string, p Protection) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	if r.Settings.Protection == nil {
		r.Settings.Protection = map[string]*Protection{}
	}
	r.Settings.Protection[branch] = &p
}
