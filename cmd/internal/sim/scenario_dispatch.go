package sim

import (
	"errors"
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// dispatchStep is `dispatch: {pipeline, number, user}`: someone runs the pipelines
// workflow by hand (workflow_dispatch) with the inputs pipeline and number, asking the
// action to start that pipeline on that subject.
type dispatchStep struct {
	Pipeline string `yaml:"pipeline"`
	Number   any    `yaml:"number"` // as the form sends it: a string, or a number
	User     string `yaml:"user"`
}

// pipelinesWorkflow is the file the scenarios' action runs in.
const pipelinesWorkflow = "pipelines.yml"

// applyDispatch plays v: its workflow_dispatch event is delivered to the action's run.
func (s *simulation) applyDispatch(v *dispatchStep) ([]ghfake.Event, string, bool, error) {
	if v.User == "" {
		return nil, "", false, errors.New("dispatch needs user")
	}
	inputs := map[string]any{}
	if v.Pipeline != "" {
		inputs["pipeline"] = v.Pipeline
	}
	if v.Number != nil {
		inputs["number"] = fmt.Sprint(v.Number)
	}
	ev := s.fake.WorkflowDispatchEvent(s.sc.Repo, pipelinesWorkflow, s.sc.DefaultBranch, v.User, inputs)
	return []ghfake.Event{ev}, fmt.Sprintf("dispatch: %s runs %s with pipeline %q, number %v", v.User, pipelinesWorkflow, v.Pipeline, v.Number), true, nil
}
