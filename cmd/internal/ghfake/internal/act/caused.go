package act

import (
	"slices"
	"sort"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// What the action's own writes cause. GitHub sends webhooks for the action's merges, labels,
// issues and comments as for anyone's; whether a workflow starts on them depends on the token
// that made them (GITHUB_TOKEN starts none), which is the simulator's business. The fake tells
// what changed between a Mark and now, as the events GitHub would send, of the kinds the
// action's workflow listens to (docs/setup/pipelines-nokey.yml) and the action causes: pull_request
// labeled, unlabeled, synchronize (its update of the branch) and closed; issues opened,
// labeled, unlabeled and closed; issue_comment created; status (settings.status_check); push,
// for each branch the action updated (a state branch commit, a merge), which only a workflow
// on push receives. Each payload shows its subject as it is when asked (a label added
// before the merge shows the merged pull request): the action reads what is true from the
// API, not from the payload.

// Mark is the state of a repository's issues, pull requests and comments at one moment.
type Mark struct {
	repo     string
	issues   map[int]issueMark
	comments map[int64]bool
	statuses map[int64]bool
	pushes   int // the length of the repository's PushLog
}

type issueMark struct {
	timeline int
	state    string
	head     string // a pull request's head
}

// Mark records repoName's issues, pull requests and comments as they are now.
func (s *Views) Mark(repoName string) Mark {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	m := Mark{repo: repoName, issues: map[int]issueMark{}, comments: map[int64]bool{}, statuses: map[int64]bool{}, pushes: len(r.PushLog)}
	for n, is := range r.Issues {
		m.issues[n] = issueMark{timeline: len(is.Timeline), state: is.State, head: is.HeadSHA}
	}
	for _, c := range r.Comments {
		m.comments[c.ID] = true
	}
	for _, c := range r.Commits {
		for _, st := range c.Statuses {
			m.statuses[st.ID] = true
		}
	}
	return m
}

// CausedSince returns the events that login's changes since m would make GitHub send, by
// issue or pull request in number order: its opening, its update of the pull request's
// branch, the labels added and removed, the comments created, then its closing (a merge: by
// who merged it); then the commit statuses login created, in the order it created them; then
// login's pushes, in order.
func (s *Views) CausedSince(m Mark, login string) []shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(m.repo)
	numbers := make([]int, 0, len(r.Issues))
	for n := range r.Issues {
		numbers = append(numbers, n)
	}
	sort.Ints(numbers)
	var out []shapes.Event
	for _, n := range numbers {
		is := r.Issues[n]
		was, existed := m.issues[n]
		if !existed {
			if is.Author != login {
				continue
			}
			out = append(out, s.causedEvent(r, is, "opened", login, nil))
			was = issueMark{state: "open", head: is.HeadSHA}
		}
		if c := r.Commits[is.HeadSHA]; is.IsPR && is.HeadSHA != was.head && c != nil && c.UpdatedBy == login {
			out = append(out, s.PREvent(r, is, "synchronize", login, shapes.Obj{"before": was.head, "after": is.HeadSHA}))
		}
		for _, ev := range is.Timeline[was.timeline:] {
			if ev.Actor != login || (ev.Kind != "LabeledEvent" && ev.Kind != "UnlabeledEvent") {
				continue
			}
			action := map[string]string{"LabeledEvent": "labeled", "UnlabeledEvent": "unlabeled"}[ev.Kind]
			out = append(out, s.causedEvent(r, is, action, login, shapes.Obj{"label": s.LabelJSON(r, ev.Label)}))
		}
		for _, c := range r.Comments {
			if c.Issue == n && c.Author == login && !m.comments[c.ID] {
				p := shapes.Obj{"action": "created", "issue": s.IssueJSON(r, is), "comment": s.CommentJSON(r, c)}
				out = append(out, s.EventOf(r, "issue_comment", "created", login, p))
			}
		}
		closer := is.ClosedBy
		if is.Merged {
			closer = is.MergedBy
		}
		if was.state == "open" && is.State == "closed" && closer == login {
			out = append(out, s.causedEvent(r, is, "closed", login, nil))
		}
	}
	out = append(out, s.causedStatuses(r, m, login)...)
	for _, p := range r.PushLog[m.pushes:] {
		if p.Pusher == login {
			out = append(out, s.PushEvent(r, p))
		}
	}
	return out
}

// causedStatuses are the status events of the statuses login created since m on the head
// of an open pull request, by id.
func (s *Views) causedStatuses(r *world.Repo, m Mark, login string) []shapes.Event {
	var made []*world.Status
	for _, c := range r.Commits {
		for _, st := range c.Statuses {
			if st.Creator == login && !m.statuses[st.ID] {
				made = append(made, st)
			}
		}
	}
	sort.Slice(made, func(i, j int) bool { return made[i].ID < made[j].ID })
	var out []shapes.Event
	for _, st := range made {
		for _, n := range sortedNumbers(r) {
			pr := r.Issues[n]
			if c := r.Commits[pr.HeadSHA]; pr.IsPR && pr.State == "open" && c != nil && slices.Contains(c.Statuses, st) {
				out = append(out, s.StatusEvent(r, pr, c, st))
				break
			}
		}
	}
	return out
}

func sortedNumbers(r *world.Repo) []int {
	numbers := make([]int, 0, len(r.Issues))
	for n := range r.Issues {
		numbers = append(numbers, n)
	}
	sort.Ints(numbers)
	return numbers
}

// causedEvent is the pull_request or issues event of is.
func (s *Views) causedEvent(r *world.Repo, is *world.Issue, action, login string, extra shapes.Obj) shapes.Event {
	if is.IsPR {
		return s.PREvent(r, is, action, login, extra)
	}
	return s.IssuesEvent(r, is, action, login, extra)
}
