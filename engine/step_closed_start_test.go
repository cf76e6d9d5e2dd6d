package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

// An event read after the pull request was merged starts nothing on it (its agent would
// work on a subject that is done with), unless the pipeline's trigger is the closing.
func TestNoRunStartsOnAClosedSubject(t *testing.T) {
	merged := prFacts()
	merged.PR.State = model.PRMerged
	res := Step(stepConfig(), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, merged, t0)
	assert.Empty(t, res.State.Runs)
	assert.Contains(t, joinLog(res.Log), `pipeline "auto-merge": the subject is merged; not started`)

	cleanup := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{
		Name: "cleanup", HasTrigger: true, Trigger: lang.Trigger{Event: "pull_request.closed"},
		Stages: []*lang.Stage{{ID: "label", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"done"}}, OnSuccess: lang.TargetComplete}},
	}}}
	res = Step(cleanup, nil, model.Input{Key: "k2", Event: "pull_request.closed"}, merged, t0)
	assert.Len(t, res.State.Runs, 1, "a trigger on closing starts on a closed subject")
}
