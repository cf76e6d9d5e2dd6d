package engine

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// examples/feature-dev as written: an issue's run whose review stage runs standard-review.
// The child runs on the issue, and sees the run's pull request: context.pr_number passes
// through the stage's `context:` as a number, so the child follows the pull request, and
// each of its agents is told which pull request to review.
func TestFeatureDevChildSeesTheRunsPullRequest(t *testing.T) {
	src, err := os.ReadFile("../examples/feature-dev/pipelines.yaml")
	require.NoError(t, err)
	cfg, err := Load(".github/pipelines.yaml", src, nil)
	require.NoError(t, err)
	pr := ownPR(9)
	pr.Author = "dev"
	f := issueFacts(pr)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	require.Len(t, res.State.Runs, 1)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, 4, res.Effects[0].Number, "feat-dev is asked on the issue")
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "feature-dev/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)

	parent, child := runOf(res.State, "feature-dev/4/1"), runOf(res.State, "standard-review/4/1")
	require.NotNil(t, child, res.Log)
	assert.Equal(t, "review", parent.Stage)
	assert.Equal(t, "acme/widgets#4", child.Subject, "the child runs on the issue")
	assert.Equal(t, 9, model.RunPR(child), "the child's context.pr_number is the run's pull request, a number")
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, "standard-review/4/1/test-coverage/1/dispatch", eff.Key)
	assert.Equal(t, lang.DispatchWorkflow, eff.Dispatch)
	assert.Equal(t, "acme/widgets#4", eff.Inputs["subject"])
	var ctx map[string]any
	require.NoError(t, json.Unmarshal([]byte(eff.Inputs["context"]), &ctx))
	assert.Equal(t, 9.0, ctx["pr_number"], "the agent is told which pull request to review")
	assert.Equal(t, []any{9.0}, ctx["prs"])
}
