package ghfake

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Event is a webhook delivery as GitHub would send it for a change of the world.
type Event struct {
	Name    string // the X-GitHub-Event header: pull_request, issues, ...
	Action  string // the payload's action ("" for events without one, such as status)
	Payload []byte // the JSON body
}

// PROptions describes a pull request to open. Zero values: Base is the default branch, Head is
// "pr-<number>", Title is "PR #<number>", and the head branch is in the repository itself.
type PROptions struct {
	Number int
	Author string
	Base   string
	Head   string
	// Fork, when set, is the owner of the fork the head branch lives in: "<Fork>/<repo name>",
	// created from the repository's default branch the first time it is named.
	Fork   string
	Title  string
	Body   string
	Files  []string
	Labels []string
	Draft  bool
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
func (s *Server) OpenPR(repoName string, o PROptions) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	n := s.claimNumber(r, o.Number)
	if o.Base == "" {
		o.Base = r.defaultBranch
	}
	if o.Head == "" {
		o.Head = fmt.Sprintf("pr-%d", n)
	}
	if o.Title == "" {
		o.Title = fmt.Sprintf("PR #%d", n)
	}
	base := s.ensureBranch(r, o.Base)
	hr := r
	if o.Fork != "" {
		hr = s.ensureFork(r, o.Fork)
	}
	// A branch of the repository itself is cut from the base it will merge into.
	var head *branch
	if hr == r {
		head = s.ensureBranchFrom(r, o.Head, base)
	} else {
		head = s.ensureBranch(hr, o.Head)
	}
	for _, f := range o.Files {
		content := "// " + f + " changed in #" + fmt.Sprint(n) + "\n"
		bl := &blob{oid: blobOID(content), text: content}
		r.blobs[bl.oid] = bl
		head.files[f] = bl
	}
	c := s.newCommit(r, o.Title, []string{head.head}, head.files, r.fullName(), n, 0).authored(o.Author, false)
	head.head = c.sha
	now := s.clock()
	pr := &issue{
		repo: r, number: n, id: s.newID(), author: o.Author, title: o.Title, body: o.Body, state: "open",
		createdAt: now, updatedAt: now, isPR: true, base: o.Base, head: o.Head, headRepo: hr,
		baseSHA: base.head, headSHA: c.sha, commits: []string{c.sha},
		files: append([]string(nil), o.Files...), draft: o.Draft, mergeable: "MERGEABLE",
	}
	var labels []string
	for _, l := range o.Labels {
		labels = labelSet(r, labels, l)
	}
	s.relabel(pr, labels, o.Author)
	r.issues[n] = pr
	return s.prEvent(r, pr, "opened", o.Author, nil)
}

// OpenIssue opens an issue and returns issues/opened. Number 0 takes the next free number.
func (s *Server) OpenIssue(repoName string, o IssueOptions) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	n := s.claimNumber(r, o.Number)
	if o.Title == "" {
		o.Title = fmt.Sprintf("Issue #%d", n)
	}
	now := s.clock()
	is := &issue{repo: r, number: n, id: s.newID(), author: o.Author, title: o.Title, body: o.Body,
		state: "open", createdAt: now, updatedAt: now}
	var labels []string
	for _, l := range o.Labels {
		labels = labelSet(r, labels, l)
	}
	s.relabel(is, labels, o.Author)
	r.issues[n] = is
	return s.issuesEvent(r, is, "opened", o.Author, nil)
}

// claimNumber returns n, or, when n is 0, one more than the highest number so far (as GitHub
// numbers them); a taken number panics. PRs and issues share the number space. The caller
// holds s.mu.
func (s *Server) claimNumber(r *repo, n int) int {
	if n == 0 {
		// GitHub numbers issues and pull requests one after the highest so far.
		for k := range r.issues {
			n = max(n, k)
		}
		n++
	}
	if r.issues[n] != nil {
		panic(fmt.Sprintf("ghfake: %s#%d already exists", r.fullName(), n))
	}
	return n
}

// Review submits a review by user on the pull request's current head and returns
// pull_request_review/submitted. state is approved, changes_requested or commented.
func (s *Server) Review(repoName string, number int, user, state, body string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	pr := s.mustPR(r, number)
	st := strings.ToUpper(state)
	switch st {
	case "APPROVED", "CHANGES_REQUESTED", "COMMENTED":
	default:
		panic(fmt.Sprintf("ghfake: review state %q is not approved, changes_requested or commented", state))
	}
	rv := &review{pr: pr, id: s.newBigID(), user: user, state: st, body: body, commitID: pr.headSHA, submittedAt: s.clock()}
	pr.reviews = append(pr.reviews, rv)
	return s.reviewEvent(r, pr, rv, "submitted", user)
}

// DismissReview dismisses user's latest approving or changes-requested review (it becomes
// DISMISSED) and returns pull_request_review/dismissed, sent by the repository owner.
func (s *Server) DismissReview(repoName string, number int, user string) Event {
	return s.DismissReviewAs(repoName, number, user, "")
}

// DismissReviewAs dismisses user's latest approving or blocking review as by (the
// repository's owner when empty): the review becomes DISMISSED, the timeline records a
// ReviewDismissedEvent whose actor is by, and pull_request_review/dismissed is sent by by.
func (s *Server) DismissReviewAs(repoName string, number int, user, by string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	pr := s.mustPR(r, number)
	if by == "" {
		by = r.owner
	}
	for i := len(pr.reviews) - 1; i >= 0; i-- {
		rv := pr.reviews[i]
		if rv.user == user && (rv.state == "APPROVED" || rv.state == "CHANGES_REQUESTED") {
			previous := rv.state
			rv.state = "DISMISSED"
			s.record(pr, "ReviewDismissedEvent", by, func(e *timelineEvent) { e.review, e.previous = rv, previous })
			return s.reviewEvent(r, pr, rv, "dismissed", by)
		}
	}
	panic(fmt.Sprintf("ghfake: %s#%d has no review of %s to dismiss", r.fullName(), number, user))
}

// Push adds a commit to the pull request's head branch and returns pull_request/synchronize with
// before and after, sent by the author.
func (s *Server) Push(repoName string, number int) Event {
	return s.PushFiles(repoName, number, nil)
}

// PushFiles is Push of a commit that writes files (path → content) on the head branch (in
// the fork for a fork's pull request), whose objects the repository then holds too.
func (s *Server) PushFiles(repoName string, number int, files map[string]string) Event {
	return s.PushAs(repoName, number, files, "")
}

// PushAs is PushFiles by user (the pull request's author when ""): the commit's author
// and committer, and the sender of the synchronize event.
func (s *Server) PushAs(repoName string, number int, files map[string]string, user string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	pr := s.mustPR(r, number)
	before := pr.headSHA
	head := s.ensureBranch(pr.headRepository(), pr.head)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		content := files[p]
		bl := &blob{oid: blobOID(content), text: content}
		r.blobs[bl.oid] = bl
		head.files[p] = bl
		if !slices.Contains(pr.files, p) {
			pr.files = append(pr.files, p)
		}
	}
	if user == "" {
		user = pr.author
	}
	c := s.newCommit(r, fmt.Sprintf("Update #%d (%d)", number, len(pr.commits)+1), []string{head.head}, head.files, r.fullName(), number, len(pr.commits)).authored(user, false)
	pr.headSHA = c.sha
	pr.commits = append(pr.commits, c.sha)
	pr.updatedAt = s.clock()
	head.head = c.sha
	return s.prEvent(r, pr, "synchronize", user, obj{"before": before, "after": c.sha})
}

// UpdateBranch merges the head of the base branch into the pull request's head branch, as
// GitHub's "Update branch" button does for user: a merge commit authored by user, committed
// and signed by GitHub (web-flow), whose parents are the old head and the base's head. It
// sends synchronize from user. Conflicts are not modelled: the head's files win.
func (s *Server) UpdateBranch(repoName string, number int, user string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	return s.updateBranch(r, s.mustPR(r, number), user)
}

// updateBranch is UpdateBranch with s.mu held (the REST route's too, mergeability.go).
func (s *Server) updateBranch(r *repo, pr *issue, user string) Event {
	number := pr.number
	before := pr.headSHA
	head := s.ensureBranch(pr.headRepository(), pr.head)
	base := s.ensureBranch(r, pr.base)
	files := copyFiles(base.files)
	for p, bl := range head.files {
		files[p] = bl
	}
	head.files = files
	msg := fmt.Sprintf("Merge branch '%s' into %s", pr.base, pr.head)
	c := s.newCommit(r, msg, []string{head.head, base.head}, files, r.fullName(), number, "update", len(pr.commits)).authored(user, true)
	pr.headSHA = c.sha
	pr.commits = append(pr.commits, c.sha)
	pr.updatedAt = s.clock()
	head.head = c.sha
	return s.prEvent(r, pr, "synchronize", user, obj{"before": before, "after": c.sha})
}

// Label adds or removes a label, sent by the subject's author: pull_request or issues,
// labeled or unlabeled.
func (s *Server) Label(repoName string, number int, label string, add bool) Event {
	return s.LabelAs(repoName, number, label, add, "")
}

// LabelAs adds or removes label as user (the issue's author when empty): the timeline's
// LabeledEvent or UnlabeledEvent names user as its actor, and user sends the event.
func (s *Server) LabelAs(repoName string, number int, label string, add bool, user string) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	is := s.mustIssue(r, number)
	action := "labeled"
	labels := append([]string(nil), is.labels...)
	if add {
		label = r.label(label)
		labels = labelSet(r, labels, label)
	} else {
		var removed string
		if labels, removed = labelDel(labels, label); removed != "" {
			label = removed
		}
		action = "unlabeled"
	}
	if user == "" {
		user = is.author
	}
	s.relabel(is, labels, user)
	is.updatedAt = s.clock()
	extra := obj{"label": s.labelJSON(r, label)}
	if is.isPR {
		return s.prEvent(r, is, action, user, extra)
	}
	return s.issuesEvent(r, is, action, user, extra)
}

// Comment adds user's comment to an issue or pull request and returns issue_comment/created and the
// comment's id.
func (s *Server) Comment(repoName string, number int, user, body string) (Event, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	is := s.mustIssue(r, number)
	c := s.addComment(r, is, user, body)
	p := obj{"action": "created", "issue": s.issueJSON(r, is), "comment": s.commentJSON(r, c)}
	return s.event(r, "issue_comment", "created", user, p), c.id
}

// addComment records a comment. The caller holds s.mu.
func (s *Server) addComment(r *repo, is *issue, user, body string) *comment {
	now := s.clock()
	c := &comment{id: s.newBigID(), issue: is.number, author: user, body: body, createdAt: now, updatedAt: now}
	r.comments = append(r.comments, c)
	is.updatedAt = now
	return c
}

// ClosePR closes the pull request without merging and returns pull_request/closed (merged false),
// sent by its author. For a merged pull request it returns the closed event of the merge
// (merged true, sent by who merged it), which GitHub sends when the merge was made with a
// token other than a workflow's GITHUB_TOKEN.
func (s *Server) ClosePR(repoName string, number int) Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	pr := s.mustPR(r, number)
	if pr.merged {
		return s.prEvent(r, pr, "closed", pr.mergedBy, nil)
	}
	now := s.clock()
	pr.state, pr.closedAt, pr.updatedAt, pr.closedBy = "closed", now, now, pr.author
	return s.prEvent(r, pr, "closed", pr.author, nil)
}

// SetMergeable sets the pull request's mergeable state: MERGEABLE, CONFLICTING or UNKNOWN (any
// case). GitHub sends no event for it.
func (s *Server) SetMergeable(repoName string, number int, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := strings.ToUpper(state)
	switch st {
	case "MERGEABLE", "CONFLICTING", "UNKNOWN":
	default:
		panic(fmt.Sprintf("ghfake: mergeable state %q is not MERGEABLE, CONFLICTING or UNKNOWN", state))
	}
	s.mustPR(s.mustRepo(repoName), number).mergeable = st
}
