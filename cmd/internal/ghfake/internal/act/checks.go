package act

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// CompleteCheck completes check run name with conclusion on the pull request's current head.
//
// With app "" the run is the one job of an Actions workflow of the same name: see CompleteJob.
// Otherwise the run belongs to that app's check suite on the commit (one per app and commit,
// as GitHub makes them), and the event is check_suite/completed of that app. A run of the same
// name in the same suite is replaced, as a re-run is; runs of other apps stay.
func (s *CI) CompleteCheck(repoName string, number int, name, conclusion, app string) shapes.Event {
	if app == "" {
		return s.CompleteJob(repoName, number, name, name, conclusion)
	}
	return s.completeCheck(repoName, number, app, "", name, conclusion)
}

// CompleteJob completes job name of Actions workflow workflow with conclusion on the pull
// request's current head, and returns the workflow_run/completed event (GitHub sends no check
// events for suites Actions created). Each workflow has its own run, and so its own suite, on a
// commit; a re-run of the job lands in the same suite and replaces the earlier run.
func (s *CI) CompleteJob(repoName string, number int, workflow, name, conclusion string) shapes.Event {
	if workflow == "" {
		panic("ghfake: a job needs the name of its workflow")
	}
	return s.completeCheck(repoName, number, world.ActionsApp, workflow, name, conclusion)
}

func (s *CI) completeCheck(repoName string, number int, app, workflow, name, conclusion string) shapes.Event {
	if !world.Conclusions[conclusion] {
		panic(fmt.Sprintf("ghfake: check conclusion %q is not one of success, failure, neutral, cancelled, skipped, timed_out, action_required", conclusion))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	c := r.Commits[pr.HeadSHA]
	suite := s.SuiteOf(c, app, workflow)
	run := &world.CheckRun{ID: s.NewBigID(), Suite: suite, Name: name, Status: "completed",
		Conclusion: conclusion, CompletedAt: s.Clock()}
	kept := c.Checks[:0]
	for _, old := range c.Checks {
		if old.Name != name || old.Suite != suite {
			kept = append(kept, old)
		}
	}
	c.Checks = append(kept, run)
	if workflow != "" {
		return s.WorkflowRunEvent(r, pr, suite)
	}
	return s.CheckSuiteEvent(r, pr, suite)
}

// SetStatus sets commit status context to state (error, failure, pending or success) on the pull
// request's head, as the pull request's author, and returns the status event.
func (s *CI) SetStatus(repoName string, number int, context, state string) shapes.Event {
	return s.SetStatusAs(repoName, number, context, state, "")
}

// SetStatusAs is SetStatus as user ("": the pull request's author), the event's sender.
func (s *CI) SetStatusAs(repoName string, number int, context, state, user string) shapes.Event {
	st := strings.ToLower(state)
	switch st {
	case "error", "failure", "pending", "success":
	default:
		panic(fmt.Sprintf("ghfake: status state %q is not error, failure, pending or success", state))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	c := r.Commits[pr.HeadSHA]
	stat := s.AddStatus(c, context, st)
	stat.Creator = user
	if user == "" {
		stat.Creator = pr.Author
	}
	return s.StatusEvent(r, pr, c, stat)
}

// CompleteGroupCheck completes check name, a job of workflow, on the merge group of pull
// request number in its base's merge queue, as CI running on merge_group does, and lets
// the queue move (world.Queue.Advance). It returns the pull_request.closed events of the
// pull requests the queue merged, sent by the queue. It panics when the pull request is not
// queued.
func (s *CI) CompleteGroupCheck(repoName string, number int, workflow, name, conclusion string) []shapes.Event {
	if !world.Conclusions[conclusion] {
		panic(fmt.Sprintf("ghfake: check conclusion %q is not one of success, failure, neutral, cancelled, skipped, timed_out, action_required", conclusion))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	e, _ := world.EntryOf(s.MustPR(r, number))
	if e == nil {
		panic(fmt.Sprintf("ghfake: #%d is not in a merge queue", number))
	}
	c := r.Commits[e.Group]
	run := &world.CheckRun{ID: s.NewBigID(), Suite: s.SuiteOf(c, world.ActionsApp, workflow), Name: name, Status: "completed",
		Conclusion: conclusion, CompletedAt: s.Clock()}
	c.Checks = append(c.Checks, run)
	queued := append([]*world.QueueEntry(nil), world.Queued(r, e.PR.Base)...)
	pushes := len(r.PushLog)
	s.Advance(r, e.PR.Base)
	var out []shapes.Event
	for _, q := range queued {
		if q.PR.Merged {
			out = append(out, s.PREvent(r, q.PR, "closed", world.QueueLogin, nil))
		}
	}
	// The queue moving the base is a push, whose event starts workflows on push.
	for _, p := range r.PushLog[pushes:] {
		out = append(out, s.PushEvent(r, p))
	}
	return out
}
