package act

import (
	"sort"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// PRView is a pull request as tests and scenarios assert on it.
type PRView struct {
	Number        int
	State         string // open, closed
	Merged        bool
	MergeMethod   string // merge, squash, rebase; "" unless merged
	MergedBy      string
	Title         string
	Labels        []string
	HeadSHA       string
	Head, Base    string
	HeadRepo      string // owner/name of the repository the head branch lives in
	Draft         bool
	Mergeable     string
	BranchDeleted bool // the head branch was deleted
	// Requested are the requested reviewers, sorted; teams as "team:<slug>".
	Requested []string
	// MergeCommit is the message of the commit its merge made; "" unless merged.
	MergeCommit string
}

// IssueView is an issue as tests and scenarios assert on it.
type IssueView struct {
	Number int
	State  string
	Title  string
	Labels []string
	IsPR   bool
	Body   string
	Author string
}

// CommentView is an issue or pull-request comment. Editor and LastEditedAt are set once
// it was edited (Editor is the last editor).
type CommentView struct {
	ID           int64
	Author       string
	Body         string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	Editor       string
	LastEditedAt time.Time
	// Edits are the comment's earlier bodies, oldest first, as its edit history keeps them.
	Edits []string
}

// PR returns pull request number of repo; it panics when there is none.
func (s *Views) PR(repoName string, number int) PRView {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	pr := s.MustPR(s.MustRepo(repoName), number)
	return PRView{
		Number: pr.Number, State: pr.State, Merged: pr.Merged, MergeMethod: pr.MergeMethod,
		MergedBy: pr.MergedBy, Title: pr.Title, Labels: sortedCopy(pr.Labels), HeadSHA: pr.HeadSHA,
		Head: pr.Head, Base: pr.Base, Draft: pr.Draft, Mergeable: world.MergeableNow(pr),
		BranchDeleted: pr.BranchDeleted, HeadRepo: pr.HeadRepository().FullName(),
		Requested: sortedCopy(pr.Requested), MergeCommit: mergeCommit(pr),
	}
}

// mergeCommit is the message of the commit pr's merge made, "" when there is none.
func mergeCommit(pr *world.Issue) string {
	if c := pr.Repo.Commits[pr.MergeCommitSHA]; pr.Merged && c != nil {
		return c.Message
	}
	return ""
}

// IssueView returns issue (or pull request) number of repo; it panics when there is none.
func (s *Views) IssueView(repoName string, number int) IssueView {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	is := s.MustIssue(s.MustRepo(repoName), number)
	return IssueView{Number: is.Number, State: is.State, Title: is.Title, Labels: sortedCopy(is.Labels), IsPR: is.IsPR}
}

// Comments returns the comments on issue or pull request number, oldest first.
func (s *Views) Comments(repoName string, number int) []CommentView {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	var out []CommentView
	for _, c := range r.Comments {
		if c.Issue == number {
			out = append(out, commentView(c))
		}
	}
	return out
}

// AllComments returns every comment of repoName, on any issue or pull request, oldest
// first, and then the deleted ones (their text was notified before they were deleted).
func (s *Views) AllComments(repoName string) []CommentView {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	var out []CommentView
	for _, c := range append(append([]*world.Comment(nil), r.Comments...), r.Deleted...) {
		out = append(out, commentView(c))
	}
	return out
}

func commentView(c *world.Comment) CommentView {
	return CommentView{ID: c.ID, Author: c.Author, Body: c.Body, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		Editor: c.Editor, LastEditedAt: c.LastEditedAt, Edits: append([]string(nil), c.Edits...)}
}

// Dispatches returns the dispatches received, in order.
func (s *Views) Dispatches() []world.Dispatch {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]world.Dispatch(nil), s.DispatchLog...)
}

func sortedCopy(in []string) []string {
	out := append([]string{}, in...)
	sort.Strings(out)
	return out
}

// RequestedReviewers returns the reviews requested on pull request number: logins, and
// teams as "team:<slug>", sorted.
func (s *Views) RequestedReviewers(repoName string, number int) []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return sortedCopy(s.MustPR(s.MustRepo(repoName), number).Requested)
}

// Issues returns the issues (not pull requests) of repoName, by number.
func (s *Views) Issues(repoName string) []IssueView {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	var out []IssueView
	for _, is := range r.Issues {
		if !is.IsPR {
			out = append(out, IssueView{Number: is.Number, State: is.State, Title: is.Title, Labels: sortedCopy(is.Labels), Body: is.Body, Author: is.Author})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// Reruns returns the workflow runs whose failed jobs were run again, in order.
func (s *Views) Reruns() []world.Rerun {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]world.Rerun(nil), s.RerunLog...)
}

// RunOf returns the id of the workflow run of workflow on pull request number's head, or 0.
func (s *Views) RunOf(repoName string, number int, workflow string) int64 {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	for _, cr := range r.Commits[s.MustPR(r, number).HeadSHA].Checks {
		if cr.Suite != nil && cr.Suite.Workflow == workflow {
			return cr.Suite.RunID
		}
	}
	return 0
}

// JobsOf returns the check runs on pull request number's head, by name: "status/conclusion".
func (s *Views) JobsOf(repoName string, number int) map[string]string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	out := map[string]string{}
	for _, cr := range r.Commits[s.MustPR(r, number).HeadSHA].Checks {
		out[cr.Name] = cr.Status + "/" + cr.Conclusion
	}
	return out
}

// Queued reports whether pull request number is in its base's merge queue.
func (s *Views) Queued(repoName string, number int) bool {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	e, _ := world.EntryOf(s.MustPR(s.MustRepo(repoName), number))
	return e != nil
}
