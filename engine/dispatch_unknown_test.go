package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// oneAgentConfig is a pipeline of one agent stage whose agent dispatches by kind.
func oneAgentConfig(kind string) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "coder", Dispatch: kind, Workflow: "agent.yml", EventType: "code",
			Body: "@bot code", Label: "code-me", Assignee: "copilot"}},
		Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"},
			Stages: []*lang.Stage{{ID: "code", Type: lang.StageAgent, Agent: "coder", OnComplete: lang.TargetComplete}}}}}
}

// lostAnswer starts the run and settles its dispatch with an outcome that does not tell
// whether it was performed; it returns the state and the dispatch's key.
func lostAnswer(t *testing.T, cfg *lang.Config) (*model.State, string) {
	t.Helper()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Len(t, res.Effects, 1)
	key := res.Effects[0].Key
	res = Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: key, Err: "GitHub did not answer within 30s", Unknown: true}}, prFacts(), t0)
	assert.Empty(t, res.Effects, "not sent again in the same invocation")
	run := res.State.Runs[0]
	require.Len(t, run.Intents, 1, "the intent stays")
	assert.Equal(t, model.StageActing, run.Stages["code"].Status)
	assert.Contains(t, run.Stages["code"].Message, "it may have been performed")
	return res.State, key
}

func TestUnknownWorkflowDispatchIsLookedUpBeforeItIsSentAgain(t *testing.T) {
	cfg := oneAgentConfig(lang.DispatchWorkflow)
	st, key := lostAnswer(t, cfg)
	it := st.Runs[0].Intents[0]
	assert.Equal(t, lang.DispatchWorkflow, it.Dispatch)
	assert.Equal(t, "agent.yml", it.Target)
	inFlight, after := t0.Add(time.Minute), it.Until.Add(time.Minute)
	for _, tc := range []struct {
		name   string
		at     time.Time
		trace  *model.DispatchTrace
		resend bool
		status model.StageStatus
		intent bool   // the intent stays
		msg    string // in the stage's message
	}{
		{"seen while in flight", inFlight, &model.DispatchTrace{Seen: true, RunID: 42, Why: "run 42 is its"}, false, model.StageWaiting, false, "waiting for its report"},
		{"absent while in flight", inFlight, &model.DispatchTrace{Why: "no run"}, false, model.StageActing, true, "it may have been performed"},
		{"not looked up while in flight", inFlight, nil, false, model.StageActing, true, "it may have been performed"},
		{"seen after", after, &model.DispatchTrace{Seen: true, RunID: 42}, false, model.StageWaiting, false, "waiting for its report"},
		{"absent after", after, &model.DispatchTrace{Why: "no run"}, true, model.StageActing, true, ""},
		{"unsure after", after, &model.DispatchTrace{Unsure: true, Why: "run 9 names no attempt"}, false, model.StageWaiting, false, "run 9 names no attempt); it is not sent twice"},
		{"look-up failed after", after, &model.DispatchTrace{Err: "502"}, false, model.StageActing, true, "looking it up failed: 502"},
		{"not looked up after", after, nil, false, model.StageActing, true, "it was not looked up"},
		{"look-up failing for hours", t0.Add(model.MaxIntentLease + time.Minute), &model.DispatchTrace{Err: "502"}, false, model.StageWaiting, false, "it is not sent twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := prFacts()
			if tc.trace != nil {
				f.Dispatches = map[string]model.DispatchTrace{key: *tc.trace}
			}
			res := Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, tc.at)
			run := res.State.Runs[0]
			sr := run.Stages["code"]
			if tc.resend {
				require.Len(t, res.Effects, 1)
				assert.Equal(t, key, res.Effects[0].Key)
				require.Len(t, run.Intents, 1)
				assert.Equal(t, 2, run.Intents[0].Try, "asked for again under a new intent")
			} else {
				assert.Empty(t, res.Effects)
			}
			assert.Equal(t, tc.status, sr.Status)
			assert.Equal(t, tc.intent, len(run.Intents) == 1)
			assert.Contains(t, sr.Message, tc.msg)
			if tc.trace != nil && tc.trace.Seen {
				assert.Equal(t, int64(42), sr.AgentRun)
			}
		})
	}
}

// A label dispatch holds no intent, yet one whose answer was lost is not sent again while
// the label is there; an assignee is looked up as a workflow's runs are.
func TestUnknownLabelAndAssignDispatch(t *testing.T) {
	cfg := oneAgentConfig(lang.DispatchLabel)
	st, key := lostAnswer(t, cfg)
	assert.Equal(t, model.Intent{Key: key, Kind: model.EffectDispatch, Stage: "code", Attempt: 1, SHA: "aaaaaaaaaa", Try: 1, At: t0, Until: t0,
		Dispatch: lang.DispatchLabel, Target: "code-me"}, st.Runs[0].Intents[0])
	res := Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts("code-me"), t0.Add(time.Second))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.StageWaiting, res.State.Runs[0].Stages["code"].Status)
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Second))
	require.Len(t, res.Effects, 1, "certainly not added: added now")
	assert.Equal(t, []string{"code-me"}, res.Effects[0].Labels)

	cfg = oneAgentConfig(lang.DispatchAssign)
	st, key = lostAnswer(t, cfg)
	assert.Equal(t, "copilot", st.Runs[0].Intents[0].Target)
	f := prFacts()
	f.Dispatches = map[string]model.DispatchTrace{key: {Seen: true, Why: "copilot is assigned"}}
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Second))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.StageWaiting, res.State.Runs[0].Stages["code"].Status)
}

// A comment dispatch is known from its marker; a repository_dispatch leaves nothing to
// look at and is taken as performed once its invocation has surely ended, saying so.
func TestUnknownCommentAndRepositoryDispatch(t *testing.T) {
	cfg := oneAgentConfig(lang.DispatchComment)
	st, key := lostAnswer(t, cfg)
	f := prFacts()
	f.PR.Posted = []string{key}
	res := Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Minute))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.StageWaiting, res.State.Runs[0].Stages["code"].Status)
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Hour))
	require.Len(t, res.Effects, 1, "the marker is not there: posted again")

	cfg = oneAgentConfig(lang.DispatchRepositoryDispatch)
	st, _ = lostAnswer(t, cfg)
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Minute))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.StageActing, res.State.Runs[0].Stages["code"].Status, "in flight")
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Hour))
	assert.Empty(t, res.Effects)
	sr := res.State.Runs[0].Stages["code"]
	assert.Equal(t, model.StageWaiting, sr.Status)
	assert.Contains(t, sr.Message, "a repository_dispatch leaves nothing on GitHub to look at")
}

// A dispatch GitHub refused was not performed: it is tried again on the next event.
func TestRefusedDispatchIsSentAgain(t *testing.T) {
	cfg := oneAgentConfig(lang.DispatchWorkflow)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: res.Effects[0].Key, Err: "refused (409)"}}, prFacts(), t0)
	assert.Empty(t, res.State.Runs[0].Intents)
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Second))
	assert.Len(t, res.Effects, 1)
}

// A merge whose answer was lost is asked for again on the next event, as a refused one is:
// GitHub merges a pull request once, and the facts show it merged.
func TestUnknownMergeOutcomeIsTriedAgain(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	res = Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge: GitHub answered 502", Unknown: true}}, prFacts("ok"), t0)
	assert.Empty(t, res.State.Runs[0].Intents)
	merged := prFacts("ok")
	merged.PR.State = model.PRMerged
	done := Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, merged, t0.Add(time.Minute))
	assert.Equal(t, model.RunCompleted, done.State.Runs[0].Status)
	again := Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts("ok"), t0.Add(time.Minute))
	require.Len(t, again.Effects, 1, "not merged: asked for again")
	assert.Equal(t, model.EffectMerge, again.Effects[0].Kind)
}

// A comment whose answer was lost is not posted again while it may be in flight; then only
// if its marker is not there.
func TestUnknownCommentOutcomeKeepsItsIntent(t *testing.T) {
	cfg := commentConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Len(t, res.Effects, 1)
	key := res.Effects[0].Key
	res = Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: key, Err: "comment: GitHub answered 502", Unknown: true}}, prFacts(), t0)
	require.Len(t, res.State.Runs[0].Intents, 1)
	again := Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Minute))
	assert.Empty(t, again.Effects, "not posted again while it may be in flight")
	posted := prFacts()
	posted.PR.Posted = []string{key}
	later := Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, posted, t0.Add(time.Hour))
	assert.Empty(t, later.Effects, "posted: not posted again")
	later = Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, prFacts(), t0.Add(time.Hour))
	assert.Len(t, later.Effects, 1, "certainly not posted: posted now")
}

// An issue whose opening GitHub did not answer is not opened again: nothing tells whether
// it was, so the stage fails once its invocation has surely ended.
func TestUnknownCreateIssueIsNotOpenedAgain(t *testing.T) {
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionCreateIssue, Config: lang.ActionConfig{Title: mustTemplate("Follow up")}})
	res := stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: res.Effects[0].Key, Err: "GitHub answered 504", Unknown: true}}, prFacts(), t0)
	require.Len(t, res.State.Runs[0].Intents, 1)
	again := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts(), t0.Add(time.Second))
	assert.Empty(t, again.Effects)
	later := Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, prFacts(), t0.Add(time.Hour))
	assert.Empty(t, later.Effects)
	assert.Equal(t, model.RunFailed, later.State.Runs[0].Status)
	assert.Contains(t, later.State.Runs[0].Message, "it is not opened again")
}
