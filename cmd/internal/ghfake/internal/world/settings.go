package world

import "slices"

// Protection is the protection of one base branch and the repository's merge settings.
type Protection struct {
	RequiredReviews int      // approving reviews by people with write access
	RequiredChecks  []string // check runs or status contexts that must succeed on the head
	Strict          bool     // the head must contain the base's head
	MergeMethods    []string // allowed merge methods; none listed: all
	MergeQueue      bool     // merges go through the merge queue only
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
