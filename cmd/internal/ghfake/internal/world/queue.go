package world

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/merge3"
)

// GitHub's merge queue. A base branch whose protection requires it (Protection.MergeQueue)
// takes pull requests only through its queue: an enqueued pull request that meets the
// branch's rules gets an entry and a merge group — a commit on
// gh-readonly-queue/<base>/pr-<n>-<head sha> holding the base (or the group ahead of it)
// with the pull request's changes —, the branch's required checks run on the group's head,
// and the queue merges the entry at its front when they all succeed there (at once when
// none are required): the base moves to the group's head and the pull request is merged. A
// required check failing on a group takes its pull request out of the queue, and the
// groups behind it are built again; so does a push to a queued pull request's head.

// QueueLogin is the app that merges the queue's groups and sends their events.
const QueueLogin = "github-merge-queue[bot]"

// QueueEntry is a pull request in the merge queue of its base branch.
type QueueEntry struct {
	ID         int64
	PR         *Issue
	By         string // who enqueued it
	EnqueuedAt time.Time
	// BaseSHA is the commit the group is built on (the base's head, or the group ahead's);
	// Group is the group's head commit, and Ref the branch that holds it.
	BaseSHA, Group, Ref string
}

// Queue changes and answers the merge queues of the repositories' branches.
type Queue struct{ *World }

// Queued is the queue of base in r, front first. The caller holds Mu.
func Queued(r *Repo, base string) []*QueueEntry { return r.Queues[base] }

// EntryOf is pr's entry in its base's queue and its position there (1 the front), or nil.
// The caller holds Mu.
func EntryOf(pr *Issue) (*QueueEntry, int) {
	for i, e := range pr.Repo.Queues[pr.Base] {
		if e.PR == pr {
			return e, i + 1
		}
	}
	return nil, 0
}

// Enqueue adds pr to its base's queue for by, when GitHub would: the branch requires the
// queue, pr is open, no draft, not queued already, at expectedHead when one is given, and
// meets the branch's rules but its checks (which run on the group); else it says why.
// The caller holds Mu.
func (s *Queue) Enqueue(pr *Issue, by, expectedHead string) (*QueueEntry, string) {
	p := pr.Repo.Settings.Protection[pr.Base]
	switch e, _ := EntryOf(pr); {
	case p == nil || !p.MergeQueue:
		return nil, fmt.Sprintf("The merge queue is not enabled for the base branch %s", pr.Base)
	case pr.State != "open" || pr.Merged:
		return nil, "Pull request is closed"
	case pr.Draft:
		return nil, "Pull request is in draft state"
	case e != nil:
		return nil, "Pull request is already in the merge queue"
	case expectedHead != "" && expectedHead != pr.HeadSHA:
		return nil, "Head sha didn't match expected head sha"
	case s.MissingApprovals(pr, p) > 0:
		return nil, fmt.Sprintf("At least %d approving review is required by reviewers with write access.", p.RequiredReviews)
	case s.peopleRefusal(pr, p, by) != "":
		return nil, s.peopleRefusal(pr, p, by)
	}
	s.NextID++
	e := &QueueEntry{ID: s.NextID, PR: pr, By: by, EnqueuedAt: s.Clock()}
	if why := s.build(e, s.groupBase(pr.Repo, pr.Base, len(pr.Repo.Queues[pr.Base]))); why != "" {
		return nil, why
	}
	if pr.Repo.Queues == nil {
		pr.Repo.Queues = map[string][]*QueueEntry{}
	}
	pr.Repo.Queues[pr.Base] = append(pr.Repo.Queues[pr.Base], e)
	s.Advance(pr.Repo, pr.Base)
	return e, ""
}

// groupBase is the commit the group at index i of base's queue is built on.
func (s *Queue) groupBase(r *Repo, base string, i int) string {
	if i > 0 {
		return r.Queues[base][i-1].Group
	}
	return s.EnsureBranch(r, base).Head
}

// build makes e's merge group on baseSHA: the pull request's changes applied to it; why
// when they conflict.
func (s *Queue) build(e *QueueEntry, baseSHA string) string {
	pr, r := e.PR, e.PR.Repo
	head := pr.HeadRepository().Branches[pr.Head]
	if head == nil {
		return "Pull request's head branch is gone"
	}
	mb := r.MergeBase(baseSHA, head.Head)
	files, conflicts := merge3.ThreeWay(r.FilesAt(mb), r.FilesAt(baseSHA), head.Files, BlobKey)
	if len(conflicts) > 0 {
		return "Pull request has merge conflicts with the queue"
	}
	e.BaseSHA, e.Ref = baseSHA, fmt.Sprintf("gh-readonly-queue/%s/pr-%d-%s", pr.Base, pr.Number, pr.HeadSHA)
	msg := fmt.Sprintf("Merge pull request #%d from %s/%s\n\n%s", pr.Number, pr.HeadRepository().Owner, pr.Head, pr.Title)
	c := s.NewCommit(r, msg, []string{baseSHA, pr.HeadSHA}, files, "merge-group", r.FullName(), pr.Number, pr.HeadSHA, baseSHA)
	e.Group = c.SHA
	b := s.EnsureBranch(r, e.Ref)
	b.Head, b.Files = c.SHA, CopyFiles(files)
	return ""
}

// Dequeue takes pr out of its base's queue and builds the groups behind it again; false
// when it was not queued. The caller holds Mu.
func (s *Queue) Dequeue(pr *Issue) bool {
	_, at := EntryOf(pr)
	if at == 0 {
		return false
	}
	r := pr.Repo
	q := r.Queues[pr.Base]
	delete(r.Branches, q[at-1].Ref)
	r.Queues[pr.Base] = append(q[:at-1:at-1], q[at:]...)
	s.rebuild(r, pr.Base, at-1)
	return true
}

// rebuild builds the groups of base's queue from index i on again; an entry that now
// conflicts leaves the queue.
func (s *Queue) rebuild(r *Repo, base string, i int) {
	for i < len(r.Queues[base]) {
		e := r.Queues[base][i]
		delete(r.Branches, e.Ref)
		if why := s.build(e, s.groupBase(r, base, i)); why != "" {
			r.Queues[base] = append(r.Queues[base][:i:i], r.Queues[base][i+1:]...)
			continue
		}
		i++
	}
}

// Advance merges the entries at the front of base's queue whose group's required checks all
// succeeded, and takes out one whose group failed a required check. The caller holds Mu.
func (s *Queue) Advance(r *Repo, base string) {
	p := r.Settings.Protection[base]
	for len(r.Queues[base]) > 0 && p != nil {
		e := r.Queues[base][0]
		switch s.groupChecks(r, e, p.RequiredChecks) {
		case "FAILURE":
			s.Dequeue(e.PR)
			continue
		case "SUCCESS":
			s.mergeGroup(r, e)
			continue
		}
		return
	}
}

// groupChecks is SUCCESS when every required check succeeded on e's group, FAILURE when one
// failed, else PENDING.
func (s *Queue) groupChecks(r *Repo, e *QueueEntry, required []string) string {
	c := r.Commits[e.Group]
	for _, name := range required {
		state := "EXPECTED"
		for _, ctx := range RollupContexts(c) {
			if ContextName(ctx) == name {
				state = ContextState(ctx)
			}
		}
		switch state {
		case "SUCCESS":
		case "FAILURE", "ERROR":
			return "FAILURE"
		default:
			return "PENDING"
		}
	}
	return "SUCCESS"
}

// mergeGroup merges e, at the queue's front: the base moves to its group's head (which
// holds the base's history), and its pull request is merged by who enqueued it.
func (s *Queue) mergeGroup(r *Repo, e *QueueEntry) {
	pr := e.PR
	s.RecordMerge(r, pr)
	base := s.EnsureBranch(r, pr.Base)
	r.LogPush(base.Name, base.Head, e.Group, QueueLogin)
	base.Head, base.Files = e.Group, CopyFiles(r.Commits[e.Group].Files)
	now := s.Clock()
	pr.Merged, pr.State, pr.MergedAt, pr.ClosedAt, pr.UpdatedAt = true, "closed", now, now, now
	pr.MergedBy, pr.MergeMethod, pr.MergeCommitSHA = e.By, "merge", e.Group
	r.Queues[pr.Base] = r.Queues[pr.Base][1:]
	delete(r.Branches, e.Ref)
}
