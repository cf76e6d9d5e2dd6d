package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func wakeConfig(t *testing.T, dispatch string) *lang.Config {
	cfg := agentConfig(t, dispatch)
	cfg.Pipelines[0].OnEvents = []lang.EventReaction{
		{Event: "issue_comment.created", Action: lang.ReactWakeAgent, Message: agentTemplate(t, "new comment on #{{ subject.number }}")},
		{Event: "pull_request.labeled", Action: lang.ReactWakeAgent, Agent: "analyzer"},
	}
	return cfg
}

// wakeFacts are prFacts with alice's permission read.
func wakeFacts(labels ...string) *model.Facts {
	f := prFacts(labels...)
	f.People.Permissions = map[string]string{"alice": "write", "rita": "read"}
	return f
}

func TestWakeAgentDispatchesWithTheEventOncePerDelivery(t *testing.T) {
	cfg := wakeConfig(t, lang.DispatchWorkflow)
	f := wakeFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	require.Equal(t, "implement", res.State.Runs[0].Stage)

	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(time.Minute))
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectDispatch, eff.Kind)
	assert.True(t, eff.WriteAhead)
	assert.Equal(t, "implementer", eff.Agent, "the agent of the stage the run is at")
	assert.Equal(t, "agent-implement.yml", eff.Workflow)
	assert.Equal(t, model.WakeAction, eff.Inputs["action"])
	assert.Equal(t, "1", eff.Inputs["attempt"], "the woken agent works on the attempt the run is at")
	assert.LessOrEqual(t, len(eff.Inputs), 10)
	for k := range eff.Inputs {
		assert.Contains(t, agent.DispatchInputs, k)
	}
	var ctx map[string]any
	require.NoError(t, json.Unmarshal([]byte(eff.Inputs["context"]), &ctx))
	assert.Equal(t, map[string]any{"name": "issue_comment.created", "delivery": "c1", "actor": "alice",
		"head_sha": "aaaaaaaaaa", "message": "new comment on #7"}, ctx["event"])
	assert.Equal(t, float64(7), ctx["pr_number"], "the run's context is there too")
	run := res.State.Runs[0]
	assert.Contains(t, run.Applied, eff.Key, "recorded before it is performed")
	assert.Equal(t, "implement", run.Stage, "the run does not move")
	assert.Equal(t, 1, run.Stages["implement"].Attempt)
	assert.Contains(t, lastWhy(run), "agent implementer woken on issue_comment.created")

	// Redelivered: not dispatched again; the outcome changes nothing.
	again := Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(2*time.Minute))
	assert.Empty(t, again.Effects)
	settled := Settle(cfg, res.State, model.Input{Key: "c1"}, []model.Outcome{{Key: eff.Key}}, f, t0.Add(time.Minute))
	assert.Empty(t, settled.Effects)
	assert.Equal(t, model.RunWaiting, settled.State.Runs[0].Status)
	// A refused wake-up is logged, not retried, and does not fail the stage.
	refused := Settle(cfg, res.State, model.Input{Key: "c1"}, []model.Outcome{{Key: eff.Key, Err: "HTTP 422", Permanent: true}}, f, t0.Add(time.Minute))
	assert.Equal(t, 0, refused.State.Runs[0].Stages["implement"].Errors)
	assert.Equal(t, "implement", refused.State.Runs[0].Stage)

	// Another comment: woken again. A named agent: that one.
	next := Step(cfg, res.State, model.Input{Key: "c2", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(3*time.Minute))
	require.Len(t, next.Effects, 1)
	assert.NotEqual(t, eff.Key, next.Effects[0].Key)
	lab := Step(cfg, res.State, model.Input{Key: "l1", Event: "pull_request.labeled", Actor: "alice"}, wakeFacts("x"), t0.Add(3*time.Minute))
	require.Len(t, lab.Effects, 1)
	assert.Equal(t, "analyzer", lab.Effects[0].Agent)
}

func TestWakeAgentCommentAndNoAgent(t *testing.T) {
	cfg := wakeConfig(t, lang.DispatchComment)
	f := wakeFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	require.Equal(t, "analyze", res.State.Runs[0].Stage)
	wake := Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(2*time.Minute))
	require.Len(t, wake.Effects, 1)
	assert.Contains(t, wake.Effects[0].Body, "new comment on #7\n\n@bot analyze #7")
	// Its marker on the pull request: not posted again even if Applied was lost.
	posted := wakeFacts()
	posted.PR.Posted = []string{wake.Effects[0].Key}
	again := Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "alice"}, posted, t0.Add(3*time.Minute))
	assert.Empty(t, again.Effects)

	// At a gate, with no agent named: nothing dispatched, said in the log.
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictComplete, nil), f, t0.Add(4*time.Minute))
	require.Equal(t, "done", res.State.Runs[0].Stage)
	gate := Step(cfg, res.State, model.Input{Key: "c9", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(5*time.Minute))
	assert.Empty(t, gate.Effects)
	assert.Contains(t, gate.Log, `run loop/7/1: on_events issue_comment.created wake_agent at 0:0: the run is at stage "done", which is not an agent stage, and the reaction names no agent; nothing dispatched`)
}

func TestWakeAgentOldStateAndFinishedRun(t *testing.T) {
	cfg := wakeConfig(t, lang.DispatchWorkflow)
	old := `{"version":1,"subject":"acme/widgets#7","runs":[{"id":"loop/7/1","pipeline":"loop","subject":"acme/widgets#7",
	"status":"waiting","stage":"implement","stages":{"implement":{"status":"waiting","attempt":1,"entered_at":"2026-01-05T09:00:00Z"}},
	"started_at":"2026-01-05T09:00:00Z","updated_at":"2026-01-05T09:00:00Z","applied":["loop/7/1/implement/1/dispatch"]}]}`
	var st model.State
	require.NoError(t, json.Unmarshal([]byte(old), &st))
	res := Step(cfg, &st, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "alice"}, wakeFacts(), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.WakeAction, res.Effects[0].Inputs["action"])

	st.Runs[0].Status = model.RunCompleted
	done := Step(cfg, &st, model.Input{Key: "c2", Event: "issue_comment.created", Actor: "alice"}, wakeFacts(), t0)
	assert.Empty(t, done.Effects, "a finished run is not woken")
}

func TestWakeAgentNotByAnApp(t *testing.T) {
	cfg := wakeConfig(t, lang.DispatchWorkflow)
	f := wakeFacts()
	f.Viewer = "github-actions[bot]"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	for _, actor := range []string{"claude[bot]", "github-actions", "GitHub-Actions[bot]"} {
		r := Step(cfg, res.State, model.Input{Key: "c-" + actor, Event: "issue_comment.created", Actor: actor}, f, t0.Add(time.Minute))
		assert.Empty(t, r.Effects, actor)
		assert.Contains(t, r.Log[len(r.Log)-1], "no agent is woken by an app's event", actor)
	}
	r := Step(cfg, res.State, model.Input{Key: "c-alice", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(time.Minute))
	assert.Len(t, r.Effects, 1)
}

func TestWakeAgentNeedsThePermission(t *testing.T) {
	cfg := wakeConfig(t, lang.DispatchWorkflow)
	f := wakeFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	for actor, have := range map[string]string{"rita": "read", "mallory": "not known"} {
		r := Step(cfg, res.State, model.Input{Key: "c-" + actor, Event: "issue_comment.created", Actor: actor}, f, t0.Add(time.Minute))
		assert.Empty(t, r.Effects, actor)
		assert.Contains(t, r.Log[len(r.Log)-1], "the event is by @"+actor+", whose permission is "+have+"; it needs write", actor)
	}
	// settings.chatops.permission lowers (or raises) what it needs.
	cfg.Settings.ChatOpsPermission = "read"
	r := Step(cfg, res.State, model.Input{Key: "c-rita", Event: "issue_comment.created", Actor: "rita"}, f, t0.Add(time.Minute))
	assert.Len(t, r.Effects, 1)

	// What the shell must read first: the actor's permission, when a live run wakes on the event.
	assert.Equal(t, model.Needs{Permissions: []string{"mallory"}}, core.ReactionNeeds(cfg, res.State, model.Input{Event: "issue_comment.created", Actor: "mallory"}))
	assert.Equal(t, model.Needs{}, core.ReactionNeeds(cfg, res.State, model.Input{Event: "pull_request.edited", Actor: "mallory"}))
	assert.Equal(t, model.Needs{}, core.ReactionNeeds(cfg, res.State, model.Input{Event: "issue_comment.created", Actor: "claude[bot]"}))
	assert.Equal(t, model.Needs{}, core.ReactionNeeds(cfg, nil, model.Input{Event: "issue_comment.created", Actor: "mallory"}))
}

func TestWakeAgentCarriesTheComment(t *testing.T) {
	cfg := wakeConfig(t, lang.DispatchWorkflow)
	// The reference's form: the comment's body as the message.
	cfg.Pipelines[0].OnEvents[0].Message = agentTemplate(t, "{{ trigger.comment.body }}")
	f := wakeFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	f.PR.Comments = []model.IssueComment{
		{ID: 4, Author: "alice", Body: "an older one"},
		{ID: 5, Author: "alice", Body: "please ask @bob <!-- x -->"},
		{ID: 6, Author: "bob", Body: "not the event's"},
	}
	r := Step(cfg, res.State, model.Input{Key: "c5", Event: "issue_comment.created", Actor: "alice"}, f, t0.Add(time.Minute))
	require.Len(t, r.Effects, 1)
	var ctx map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.Effects[0].Inputs["context"]), &ctx))
	ev := ctx["event"].(map[string]any)
	assert.Equal(t, map[string]any{"id": float64(5), "body": "please ask @bob <!-- x -->", "user": map[string]any{"login": "alice"}}, ev["comment"])
	assert.Equal(t, "`please ask @bob <\u200b!-- x -->`", ev["message"], "the message is made inert")

	// A message that cannot be filled (no comment: a push) does not stop the wake-up.
	cfg.Pipelines[0].OnEvents[1].Message = agentTemplate(t, "{{ trigger.comment.body }}")
	l := Step(cfg, res.State, model.Input{Key: "l1", Event: "pull_request.labeled", Actor: "alice"}, wakeFacts("x"), t0.Add(time.Minute))
	require.Len(t, l.Effects, 1)
	require.NoError(t, json.Unmarshal([]byte(l.Effects[0].Inputs["context"]), &ctx))
	assert.NotContains(t, ctx["event"], "message")
	assert.Contains(t, strings.Join(l.Log, "\n"), "woken without it")
}
