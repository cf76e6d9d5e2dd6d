package act

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"gopkg.in/yaml.v3"
)

// The end of workflow runs: those the action dispatched (CompleteDispatch) and those
// people start themselves (RunWorkflow). Their workflow_run.completed payloads carry what
// GitHub's do: the workflow file's path, the branch it ran on (head_branch), the event
// that started it, and who did (actor, and triggering_actor, who started this attempt).

// CompleteDispatch ends the workflow run that dispatch i (an index of Dispatches, a
// workflow_dispatch) started, with conclusion, and returns its workflow_run/completed
// event: event workflow_dispatch, no pull requests, the head of its ref, started by the
// account whose token dispatched it.
func (s *CI) CompleteDispatch(repoName string, i int, conclusion string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	if i < 0 || i >= len(s.DispatchLog) || s.DispatchLog[i].Workflow == "" {
		panic(fmt.Sprintf("ghfake: no workflow dispatch %d", i))
	}
	d := s.DispatchLog[i]
	if r.Branches[strings.TrimPrefix(d.Ref, "refs/heads/")] == nil {
		panic(fmt.Sprintf("ghfake: no branch %s", d.Ref))
	}
	return s.workflowRunCompleted(r, d, "workflow_dispatch", conclusion)
}

// WorkflowRun is a workflow run someone started themselves: a workflow file on a branch,
// run by an event, as a user.
type WorkflowRun struct {
	Workflow   string // the file's name under .github/workflows/
	Branch     string
	Event      string // workflow_dispatch, push, …
	Actor      string
	Title      string // its display title: the run-name as that run filled it in
	Conclusion string
}

// RunWorkflow plays workflow run w, started and ended, and returns its
// workflow_run.completed event. As on GitHub, the workflow file must be on the branch and
// have a trigger for the event, and only someone with write access can dispatch a
// workflow or push to a branch.
func (s *CI) RunWorkflow(repoName string, w WorkflowRun) (shapes.Event, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	b := r.Branches[w.Branch]
	if b == nil {
		return shapes.Event{}, fmt.Errorf("no branch %q in %s", w.Branch, repoName)
	}
	path := ".github/workflows/" + w.Workflow
	f := b.Files[path]
	if f == nil {
		return shapes.Event{}, fmt.Errorf("no workflow %s on branch %s: GitHub runs only a workflow file that is there", path, w.Branch)
	}
	if !workflowOn(f.Text)[w.Event] {
		return shapes.Event{}, fmt.Errorf("workflow %s on branch %s has no %s trigger", path, w.Branch, w.Event)
	}
	if p := s.PermissionOf(w.Actor); p != "write" && p != "maintain" && p != "admin" {
		return shapes.Event{}, fmt.Errorf("%s has %s access to %s: starting a workflow run (a dispatch, a push) takes write access", w.Actor, p, repoName)
	}
	d := world.Dispatch{Repo: r.FullName(), Workflow: w.Workflow, Ref: w.Branch, Actor: w.Actor, RunID: s.NewBigID(), Name: path, RunName: w.Title}
	var wf struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal([]byte(f.Text), &wf) == nil && wf.Name != "" {
		d.Name = wf.Name
	}
	if d.RunName == "" {
		d.RunName = d.Name
	}
	return s.workflowRunCompleted(r, d, w.Event, w.Conclusion), nil
}

// workflowRunCompleted is the workflow_run/completed event of run d, started by event,
// ended with conclusion. The caller holds Mu.
func (s *CI) workflowRunCompleted(r *world.Repo, d world.Dispatch, event, conclusion string) shapes.Event {
	b := r.Branches[strings.TrimPrefix(d.Ref, "refs/heads/")]
	actor := d.Actor
	if actor == "" {
		actor = world.BotLogin
	}
	fn := r.FullName()
	now := s.Clock()
	path := ".github/workflows/" + d.Workflow
	wfID := shapes.WorkflowID(r, d.Workflow)
	url := s.APIURL("/repos/%s/actions/runs/%d", fn, d.RunID)
	workflow := shapes.Obj{"id": wfID, "node_id": world.NodeID("Workflow", wfID), "name": d.Name, "path": path,
		"state": "active", "url": s.APIURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"html_url":   fmt.Sprintf("%s/%s/blob/%s/%s", shapes.HTMLBase, fn, r.DefaultBranch, path),
		"badge_url":  fmt.Sprintf("%s/%s/workflows/%s/badge.svg", shapes.HTMLBase, fn, d.Workflow),
		"created_at": shapes.TS(shapes.TimeZero), "updated_at": shapes.TS(shapes.TimeZero)}
	suite := world.StableID(fmt.Sprintf("suite:%d", d.RunID))
	wr := shapes.Obj{
		"id": d.RunID, "node_id": world.NodeID("WorkflowRun", d.RunID), "name": d.Name,
		"display_title": d.RunName, "path": path, "head_branch": b.Name, "head_sha": b.Head,
		"run_number": d.RunID % 1000, "run_attempt": 1, "event": event, "status": "completed",
		"conclusion": conclusion, "workflow_id": wfID, "check_suite_id": suite,
		"check_suite_node_id": world.NodeID("CheckSuite", suite), "url": url,
		"html_url":      fmt.Sprintf("%s/%s/actions/runs/%d", shapes.HTMLBase, fn, d.RunID),
		"pull_requests": []any{}, "created_at": shapes.TS(now), "updated_at": shapes.TS(now), "run_started_at": shapes.TS(now),
		"actor": s.UserJSON(actor), "triggering_actor": s.UserJSON(actor),
		"jobs_url": url + "/jobs", "logs_url": url + "/logs", "artifacts_url": url + "/artifacts",
		"cancel_url": url + "/cancel", "rerun_url": url + "/rerun", "previous_attempt_url": nil,
		"check_suite_url": s.APIURL("/repos/%s/check-suites/%d", fn, suite),
		"workflow_url":    s.APIURL("/repos/%s/actions/workflows/%d", fn, wfID),
		"head_commit":     s.HeadCommitJSON(r, r.Commits[b.Head], actor),
		"repository":      s.RepoJSON(r), "head_repository": s.RepoJSON(r),
	}
	return s.EventOf(r, "workflow_run", "completed", actor, shapes.Obj{"action": "completed", "workflow": workflow, "workflow_run": wr})
}

// workflowOn lists the events of a workflow's `on:` (a name, a list of names, or a
// mapping keyed by them).
func workflowOn(text string) map[string]bool {
	var wf map[string]yaml.Node
	out := map[string]bool{}
	if yaml.Unmarshal([]byte(text), &wf) != nil {
		return out
	}
	on := wf["on"]
	switch on.Kind {
	case yaml.ScalarNode:
		out[on.Value] = true
	case yaml.SequenceNode:
		for _, n := range on.Content {
			out[n.Value] = true
		}
	case yaml.MappingNode:
		for i := 0; i < len(on.Content); i += 2 {
			out[on.Content[i].Value] = true
		}
	}
	return out
}
