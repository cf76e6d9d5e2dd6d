package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// membersCheck passes when a member of its group's users approved; it records the facts.
type membersCheck struct {
	group string
	saw   **model.Facts
}

func (c membersCheck) Group() string { return c.group }
func (c membersCheck) Evaluate(f *model.Facts) model.GateResult {
	*c.saw = f
	for _, u := range f.Groups[c.group].Users {
		for _, r := range f.PR.Reviews {
			if r.Author == u && r.State == model.ReviewApproved {
				return model.GateResult{Status: model.GatePass}
			}
		}
	}
	return model.GateResult{Status: model.GatePending}
}

func TestGateChecksReadTheConfigsGroups(t *testing.T) {
	var saw *model.Facts
	cfg := &lang.Config{Version: 1,
		Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice"}}, {Name: "core", Users: []string{"bob"}, Teams: []string{"Acme/Core"}}},
		Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{
			{ID: "g", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "human_approved", Eval: membersCheck{"maintainers", &saw}}}},
		}}}}
	f := prFacts()
	f.PR.Reviews = []model.Review{{Author: "alice", State: model.ReviewApproved}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	require.NotNil(t, saw)
	assert.Len(t, saw.Groups, 2)
	assert.Nil(t, f.Groups, "the facts passed in are not changed")

	// A run at a gate whose group has a team needs the team's members read.
	cfg.Pipelines[0].Stages[0].Conditions[0].Eval = membersCheck{"core", &saw}
	f.PR.Reviews = nil
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	assert.Equal(t, model.Needs{Teams: []string{"Acme/Core"}}, people.Needed(cfg, res.State, f))

	// Read, it is evaluated.
	f.TeamMembers = map[string][]string{"acme/core": {"carol"}}
	f.PR.Reviews = []model.Review{{Author: "bob", State: model.ReviewApproved}}
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
}
