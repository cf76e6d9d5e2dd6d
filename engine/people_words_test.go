package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// A human stage that passes hands on what the people who counted said: who, and their
// reviews' bodies, as stages.<id>.outputs.
func TestHumanStageOutputsTheApprovingReviews(t *testing.T) {
	cfg, f := humanConfig(t, 1), humanFacts()
	res := settleAll(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	f.PR.Reviews = []model.Review{
		{Author: "mallory", State: model.ReviewApproved, Body: "not counted", CommitSHA: f.PR.HeadSHA},
		{Author: "alice", State: model.ReviewApproved, Body: "ship it", CommitSHA: f.PR.HeadSHA, CanPush: true},
	}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, t0.Add(time.Hour))
	out := res.State.Runs[0].Stages["approval"].Outputs
	require.NotNil(t, out)
	assert.Equal(t, []any{"alice"}, out["by"])
	assert.Equal(t, []any{map[string]any{"by": "alice", "state": model.ReviewApproved, "body": "ship it"}}, out["reviews"])
}

// An agent is told, in its own context, what reviewers ask to change, in their words; a bot's
// review and the author's own words are not people asking.
func TestAgentContextCarriesTheChangesRequested(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	f.PR.Author = "dev"
	f.PR.Reviews = []model.Review{
		{Author: "carol", State: model.ReviewChangesRequested, Body: "please add tests", CanPush: true},
		{Author: "lint[bot]", State: model.ReviewChangesRequested, Body: "style", IsBot: true},
		{Author: "dev", State: model.ReviewChangesRequested, Body: "note to self"},
	}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.NotEmpty(t, res.Effects)
	var ctx map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.Effects[0].Inputs["context"]), &ctx))
	assert.Equal(t, []any{map[string]any{"by": "carol", "state": model.ReviewChangesRequested, "body": "please add tests"}}, ctx["human_feedback"])

	f.PR.Reviews = nil
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	ctx = nil
	require.NoError(t, json.Unmarshal([]byte(res.Effects[0].Inputs["context"]), &ctx))
	assert.NotContains(t, ctx, "human_feedback", "nothing asked, nothing said")
}

// A notification to an agent (notify_and_wait to `agent_for_branch`, a rule's notify) carries
// what reviewers ask to change.
func TestNotifyAgentCarriesTheChangesRequested(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	cfg.Agents = append(cfg.Agents, &lang.Agent{Name: "helper", Dispatch: lang.DispatchRepositoryDispatch, EventType: "help"})
	cfg.Pipelines[0].Stages[1].Verdicts[lang.VerdictRevise].Notify = &lang.Notify{Target: agentTemplate(t, "helper"), Message: agentTemplate(t, "{{ outputs.feedback }}")}
	f := prFacts()
	f.PR.Author = "dev"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	f.PR.Reviews = []model.Review{{Author: "carol", State: model.ReviewChangesRequested, Body: "rename the flag", CanPush: true}}
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictRevise, map[string]any{"feedback": "split it"}), f, t0)
	for _, eff := range res.Effects {
		if eff.Agent == "helper" {
			var ctx map[string]any
			require.NoError(t, json.Unmarshal([]byte(eff.Inputs["context"]), &ctx))
			assert.Contains(t, ctx["message"], "split it")
			assert.Contains(t, ctx["message"], "Changes requested:")
			assert.Contains(t, ctx["message"], "carol: rename the flag")
			return
		}
	}
	t.Fatal("the helper was not notified")
}

// A comment-dispatched agent reads what reviewers ask to change in its comment, as a
// workflow agent reads it in human_feedback: the same people's words, made inert.
func TestCommentAgentCarriesTheChangesRequested(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchComment)
	cfg.Pipelines[0].Stages[0].Agent = "analyzer"
	f := prFacts()
	f.PR.Author = "dev"
	f.PR.Reviews = []model.Review{
		{Author: "carol", State: model.ReviewChangesRequested, Body: "please add tests, ask @admins", CanPush: true},
		{Author: "lint[bot]", State: model.ReviewChangesRequested, Body: "style", IsBot: true},
		{Author: "dev", State: model.ReviewChangesRequested, Body: "note to self"},
	}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.NotEmpty(t, res.Effects)
	body := res.Effects[0].Body
	assert.Equal(t, model.EffectDispatch, res.Effects[0].Kind)
	assert.Contains(t, body, "@bot analyze #7")
	assert.Contains(t, body, "Changes requested:")
	assert.Contains(t, body, "`carol: please add tests, ask @admins`", "in a code span, a reviewer's words mention no one")
	assert.NotContains(t, body, "style")
	assert.NotContains(t, body, "note to self")
	assert.Less(t, strings.Index(body, "Changes requested:"), strings.Index(body, "Report back with"), "the report line stays last")

	f.PR.Reviews = nil
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.NotContains(t, res.Effects[0].Body, "Changes requested:", "nothing asked, nothing said")
}
