package sim

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// workflowRunStep plays a workflow run someone starts themselves that poses as the agent
// of a stage: by default it copies the display title of the run the stage's live
// dispatch started, so its workflow_run.completed names the same run, stage and attempt.
// GitHub lets anyone with write access start one: on their own branch, from another
// workflow file, by another event, or the agent's own workflow dispatched by hand.
type workflowRunStep struct {
	PR         int    `yaml:"pr"`
	Stage      string `yaml:"stage"`
	User       string `yaml:"user"`       // required: who starts it
	Workflow   string `yaml:"workflow"`   // a file of .github/workflows; default the agent's
	Branch     string `yaml:"branch"`     // default the agent's ref; made from the default branch if new
	Event      string `yaml:"event"`      // default workflow_dispatch
	Title      string `yaml:"title"`      // default the agent's run's display title
	Conclusion string `yaml:"conclusion"` // default failure
}

// applyWorkflowRun plays v: the fake records the run, and its workflow_run.completed
// event is delivered.
func (s *simulation) applyWorkflowRun(v *workflowRunStep) ([]ghfake.Event, string, bool, error) {
	if v.PR == 0 || v.Stage == "" || v.User == "" {
		return nil, "", false, errors.New("workflow_run needs pr, stage and user")
	}
	run, attempt, err := s.at(v.PR, v.Stage)
	if err != nil {
		return nil, "", false, fmt.Errorf("workflow_run: %w", err)
	}
	var agent *ghfake.Dispatch
	ds := s.fake.Dispatches()
	for i := len(ds) - 1; i >= 0 && agent == nil; i-- {
		d := ds[i]
		if d.Workflow != "" && d.Inputs["run"] == run.ID && d.Inputs["stage"] == v.Stage && d.Inputs["attempt"] == strconv.Itoa(attempt) {
			agent = &d
		}
	}
	if agent == nil {
		return nil, "", false, fmt.Errorf("workflow_run: no workflow_dispatch for run %s, stage %s, attempt %d to pose as (the stage's agent is dispatched as a workflow)", run.ID, v.Stage, attempt)
	}
	w := ghfake.WorkflowRun{Workflow: cmp.Or(v.Workflow, agent.Workflow), Branch: cmp.Or(v.Branch, agent.Ref), Event: cmp.Or(v.Event, "workflow_dispatch"),
		Actor: v.User, Title: cmp.Or(v.Title, agent.RunName), Conclusion: cmp.Or(v.Conclusion, "failure")}
	// A branch of the user's own is pushed from the default branch (no event the action hears).
	s.fake.AddBranch(s.sc.Repo, w.Branch)
	ev, err := s.fake.RunWorkflow(s.sc.Repo, w)
	if err != nil {
		return nil, "", false, fmt.Errorf("workflow_run: %w", err)
	}
	label := fmt.Sprintf("workflow_run: %s starts .github/workflows/%s on %s by %s, titled %q; it ends %s",
		w.Actor, w.Workflow, w.Branch, w.Event, w.Title, w.Conclusion)
	return []ghfake.Event{ev}, label, true, nil
}
