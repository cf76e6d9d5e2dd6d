package act

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// PROptions describes a pull request to open. Zero values: Base is the default branch, Head is
// "pr-<number>", Title is "PR #<number>", and the head branch is in the repository itself.
type PROptions struct {
	Number int
	Author string
	Base   string
	Head   string
	// Fork, when set, is the owner of the fork the head branch lives in: "<Fork>/<repo name>",
	// created from the repository's default branch the first time it is named.
	Fork string
	// NoMaintainerEdits: the author of a fork's pull request does not allow edits by
	// maintainers.
	NoMaintainerEdits bool
	Title             string
	Body              string
	Files             []string
	Labels            []string
	Draft             bool
}

// IssueOptions describes an issue to open.
type IssueOptions struct {
	Number int
	Author string
	Title  string
	Body   string
	Labels []string
}

// OpenPR opens a pull request: it creates the head branch with a first commit (a deterministic
// sha), then returns pull_request/opened, sent by the author. Number 0 takes the next free number.
func (s *PRs) OpenPR(repoName string, o PROptions) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	n := s.ClaimNumber(r, o.Number)
	if o.Base == "" {
		o.Base = r.DefaultBranch
	}
	if o.Head == "" {
		o.Head = fmt.Sprintf("pr-%d", n)
	}
	if o.Title == "" {
		o.Title = fmt.Sprintf("PR #%d", n)
	}
	base := s.EnsureBranch(r, o.Base)
	hr := r
	if o.Fork != "" {
		hr = s.EnsureFork(r, o.Fork)
	}
	// A branch of the repository itself is cut from the base it will merge into.
	var head *world.Branch
	if hr == r {
		head = s.EnsureBranchFrom(r, o.Head, base)
	} else {
		head = s.EnsureBranch(hr, o.Head)
	}
	for _, f := range o.Files {
		content := "// " + f + " changed in #" + fmt.Sprint(n) + "\n"
		bl := &world.Blob{OID: world.BlobOID(content), Text: content}
		r.Blobs[bl.OID] = bl
		head.Files[f] = bl
	}
	c := s.NewCommit(r, o.Title, []string{head.Head}, head.Files, r.FullName(), n, 0).Authored(o.Author, false)
	head.Head = c.SHA
	now := s.Clock()
	pr := &world.Issue{
		Repo: r, Number: n, ID: s.NewID(), Author: o.Author, Title: o.Title, Body: o.Body, State: "open",
		CreatedAt: now, UpdatedAt: now, IsPR: true, Base: o.Base, Head: o.Head, HeadRepo: hr,
		BaseSHA: base.Head, HeadSHA: c.SHA, Commits: []string{c.SHA},
		Files: append([]string(nil), o.Files...), Draft: o.Draft, Mergeable: "MERGEABLE",
		NoMaintainerEdits: o.NoMaintainerEdits && hr != r,
	}
	var labels []string
	for _, l := range o.Labels {
		labels = world.LabelSet(r, labels, l)
	}
	s.Relabel(pr, labels, o.Author)
	r.Issues[n] = pr
	return s.PREvent(r, pr, "opened", o.Author, nil)
}

// OpenIssue opens an issue and returns issues/opened. Number 0 takes the next free number.
func (s *PRs) OpenIssue(repoName string, o IssueOptions) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	n := s.ClaimNumber(r, o.Number)
	if o.Title == "" {
		o.Title = fmt.Sprintf("Issue #%d", n)
	}
	now := s.Clock()
	is := &world.Issue{Repo: r, Number: n, ID: s.NewID(), Author: o.Author, Title: o.Title, Body: o.Body,
		State: "open", CreatedAt: now, UpdatedAt: now}
	var labels []string
	for _, l := range o.Labels {
		labels = world.LabelSet(r, labels, l)
	}
	s.Relabel(is, labels, o.Author)
	r.Issues[n] = is
	return s.IssuesEvent(r, is, "opened", o.Author, nil)
}

// Review submits a review by user on the pull request's current head and returns
// pull_request_review/submitted. state is approved, changes_requested or commented.
func (s *PRs) Review(repoName string, number int, user, state, body string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	st := strings.ToUpper(state)
	switch st {
	case "APPROVED", "CHANGES_REQUESTED", "COMMENTED":
	default:
		panic(fmt.Sprintf("ghfake: review state %q is not approved, changes_requested or commented", state))
	}
	rv := &world.Review{Pr: pr, ID: s.NewBigID(), User: user, State: st, Body: body, CommitID: pr.HeadSHA, SubmittedAt: s.Clock()}
	pr.Reviews = append(pr.Reviews, rv)
	return s.ReviewEvent(r, pr, rv, "submitted", user)
}

// EditReview replaces the body of reviewer's latest review as user, as GitHub lets the
// review's author and anyone with write access do: the author stays, the editor and
// lastEditedAt change. It returns pull_request_review/edited, sent by user, and panics when
// reviewer has no review.
func (s *PRs) EditReview(repoName string, number int, reviewer, user, body string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	for i := len(pr.Reviews) - 1; i >= 0; i-- {
		if rv := pr.Reviews[i]; rv.User == reviewer {
			from := rv.Body
			rv.Body, rv.Editor, rv.LastEditedAt = body, user, s.Clock()
			p := shapes.Obj{"action": "edited", "changes": shapes.Obj{"body": shapes.Obj{"from": from}},
				"review": s.ReviewJSON(r, pr, rv, true), "pull_request": s.PRJSON(r, pr)}
			return s.EventOf(r, "pull_request_review", "edited", user, p)
		}
	}
	panic(fmt.Sprintf("ghfake: %s#%d has no review of %s to edit", r.FullName(), number, reviewer))
}

// DismissReview dismisses user's latest approving or changes-requested review (it becomes
// DISMISSED) and returns pull_request_review/dismissed, sent by the repository owner.
func (s *PRs) DismissReview(repoName string, number int, user string) shapes.Event {
	return s.DismissReviewAs(repoName, number, user, "")
}

// DismissReviewAs dismisses user's latest approving or blocking review as by (the
// repository's owner when empty): the review becomes DISMISSED, the timeline records a
// ReviewDismissedEvent whose actor is by, and pull_request_review/dismissed is sent by by.
func (s *PRs) DismissReviewAs(repoName string, number int, user, by string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	if by == "" {
		by = r.Owner
	}
	for i := len(pr.Reviews) - 1; i >= 0; i-- {
		rv := pr.Reviews[i]
		if rv.User == user && (rv.State == "APPROVED" || rv.State == "CHANGES_REQUESTED") {
			previous := rv.State
			rv.State = "DISMISSED"
			s.Record(pr, "ReviewDismissedEvent", by, func(e *world.TimelineEvent) { e.Review, e.Previous = rv, previous })
			return s.ReviewEvent(r, pr, rv, "dismissed", by)
		}
	}
	panic(fmt.Sprintf("ghfake: %s#%d has no review of %s to dismiss", r.FullName(), number, user))
}

// Push adds a commit to the pull request's head branch and returns pull_request/synchronize with
// before and after, sent by the author.
func (s *PRs) Push(repoName string, number int) shapes.Event {
	return s.PushFiles(repoName, number, nil)
}

// PushFiles is Push of a commit that writes files (path → content) on the head branch (in
// the fork for a fork's pull request), whose objects the repository then holds too.
func (s *PRs) PushFiles(repoName string, number int, files map[string]string) shapes.Event {
	return s.PushAs(repoName, number, files, "")
}

// PushAs is PushFiles by user (the pull request's author when ""): the commit's author
// and committer, and the sender of the synchronize event.
func (s *PRs) PushAs(repoName string, number int, files map[string]string, user string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	before := pr.HeadSHA
	head := s.EnsureBranch(pr.HeadRepository(), pr.Head)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		content := files[p]
		bl := &world.Blob{OID: world.BlobOID(content), Text: content}
		r.Blobs[bl.OID] = bl
		head.Files[p] = bl
		if !slices.Contains(pr.Files, p) {
			pr.Files = append(pr.Files, p)
		}
	}
	if user == "" {
		user = pr.Author
	}
	c := s.NewCommit(r, fmt.Sprintf("Update #%d (%d)", number, len(pr.Commits)+1), []string{head.Head}, head.Files, r.FullName(), number, len(pr.Commits)).Authored(user, false)
	pr.HeadSHA = c.SHA
	pr.Commits = append(pr.Commits, c.SHA)
	pr.UpdatedAt = s.Clock()
	head.Head = c.SHA
	s.Dequeue(pr) // a push takes a queued pull request out of the merge queue
	return s.PREvent(r, pr, "synchronize", user, shapes.Obj{"before": before, "after": c.SHA})
}

// UpdateBranch merges the head of the base branch into the pull request's head branch, as
// GitHub's "Update branch" button does for user: a merge commit authored by user, committed
// and signed by GitHub (web-flow), whose parents are the old head and the base's head. It
// sends synchronize from user. The merge is a three-way one; on a path
// both sides changed differently the head's side stays.
func (s *PRs) UpdateBranch(repoName string, number int, user string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	return s.UpdateBranchOf(r, s.MustPR(r, number), user)
}

// Label adds or removes a label, sent by the subject's author: pull_request or issues,
// labeled or unlabeled.
func (s *PRs) Label(repoName string, number int, label string, add bool) shapes.Event {
	return s.LabelAs(repoName, number, label, add, "")
}

// LabelAs adds or removes label as user (the issue's author when empty): the timeline's
// LabeledEvent or UnlabeledEvent names user as its actor, and user sends the event.
func (s *PRs) LabelAs(repoName string, number int, label string, add bool, user string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	is := s.MustIssue(r, number)
	action := "labeled"
	labels := append([]string(nil), is.Labels...)
	if add {
		label = r.Label(label)
		labels = world.LabelSet(r, labels, label)
	} else {
		var removed string
		if labels, removed = world.LabelDel(labels, label); removed != "" {
			label = removed
		}
		action = "unlabeled"
	}
	if user == "" {
		user = is.Author
	}
	s.Relabel(is, labels, user)
	is.UpdatedAt = s.Clock()
	extra := shapes.Obj{"label": s.LabelJSON(r, label)}
	if is.IsPR {
		return s.PREvent(r, is, action, user, extra)
	}
	return s.IssuesEvent(r, is, action, user, extra)
}

// Comment adds user's comment to an issue or pull request and returns issue_comment/created and the
// comment's id.
func (s *PRs) Comment(repoName string, number int, user, body string) (shapes.Event, int64) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	is := s.MustIssue(r, number)
	c := s.AddComment(r, is, user, body)
	p := shapes.Obj{"action": "created", "issue": s.IssueJSON(r, is), "comment": s.CommentJSON(r, c)}
	return s.EventOf(r, "issue_comment", "created", user, p), c.ID
}

// ClosePR closes the pull request without merging and returns pull_request/closed (merged false),
// sent by its author. For a merged pull request it returns the closed event of the merge
// (merged true, sent by who merged it), which GitHub sends when the merge was made with a
// token other than a workflow's GITHUB_TOKEN.
func (s *PRs) ClosePR(repoName string, number int) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	if pr.Merged {
		return s.PREvent(r, pr, "closed", pr.MergedBy, nil)
	}
	now := s.Clock()
	pr.State, pr.ClosedAt, pr.UpdatedAt, pr.ClosedBy = "closed", now, now, pr.Author
	return s.PREvent(r, pr, "closed", pr.Author, nil)
}
