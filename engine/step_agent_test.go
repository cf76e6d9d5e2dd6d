package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func agentTemplate(t testing.TB, src string) *lang.Template {
	t.Helper()
	tpl, err := lang.CompileTemplate(src, lang.Pos{Line: 1, Col: 1})
	require.Nil(t, err)
	return tpl
}

// agentConfig is implement → analyze → done(gate on label "ok"), the verdict loop of
// examples/verdict-loop in small.
func agentConfig(t *testing.T, dispatch string) *lang.Config {
	ag := &lang.Agent{Name: "analyzer", Dispatch: dispatch, Workflow: "agent-analyze.yml", EventType: "analyze",
		Body: "@bot analyze #{{ subject.number }}", Label: "analyze-me", Assignee: "copilot"}
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "implementer", Dispatch: lang.DispatchWorkflow, Workflow: "agent-implement.yml", Ref: "agents"}, ag},
		Pipelines: []*lang.Pipeline{{
			Name:    "loop",
			Trigger: lang.Trigger{Event: "pull_request.opened"},
			Context: []lang.KeyValue{
				{Key: "pr_number", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ trigger.pull_request.number }}")}},
				{Key: "feedback", Value: lang.Value{Kind: lang.KindString, Scalar: ""}},
			},
			Stages: []*lang.Stage{
				{ID: "implement", Type: lang.StageAgent, Agent: "implementer", AgentAction: "implement", OnComplete: "analyze",
					OnError: &lang.ErrorPolicy{Retry: 1, Then: lang.TargetFail}},
				{ID: "analyze", Type: lang.StageAgent, Agent: "analyzer", AgentAction: "analyze", OnComplete: "done",
					Verdicts: map[string]*lang.Rule{
						lang.VerdictFollowup: {Goto: "implement", MaxIterations: 2, Then: lang.TargetFail, Context: []lang.KeyValue{
							{Key: "feedback", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ stages.analyze.outputs.feedback }}")}}}},
						lang.VerdictReject: {Goto: lang.TargetFail},
						lang.VerdictRevise: {Goto: "implement"},
					}},
				{ID: "done", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			},
		}}}
}

// dispatched performs the effects of res successfully and returns the settled result.
func dispatched(t *testing.T, cfg *lang.Config, res model.Result, f *model.Facts, at time.Time) model.Result {
	t.Helper()
	require.NotEmpty(t, res.Effects)
	var outs []model.Outcome
	for _, e := range res.Effects {
		outs = append(outs, model.Outcome{Key: e.Key})
	}
	return Settle(cfg, res.State, model.Input{}, outs, f, at)
}

func report(run, stage string, attempt int, verdict string, outputs map[string]any) model.Input {
	return model.Input{Key: "report-" + stage + verdict, Event: "report", Report: &model.Report{Run: run, Stage: stage, Attempt: attempt, Verdict: verdict, Outputs: outputs}}
}

// reportOn is report with the nonce that st holds for the stage's attempt: what the
// agent's dispatch gave it.
func reportOn(st *model.State, run, stage string, attempt int, verdict string, outputs map[string]any) model.Input {
	in := report(run, stage, attempt, verdict, outputs)
	for _, r := range st.Runs {
		if sr := r.Stages[stage]; r.ID == run && sr != nil {
			in.Report.Nonce = sr.Nonce
		}
	}
	return in
}

func TestAgentWorkflowDispatchIsWriteAheadAndOnce(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectDispatch, eff.Kind)
	assert.Equal(t, "loop/7/1/implement/1/dispatch", eff.Key)
	assert.True(t, eff.WriteAhead, "a workflow dispatch is saved as an intent first")
	assert.Equal(t, "agent-implement.yml", eff.Workflow)
	assert.Equal(t, "agents", eff.Ref)
	nonce := res.State.Runs[0].Stages["implement"].Nonce
	assert.Regexp(t, `^1-[0-9a-f]{16}$`, nonce, "the attempt's nonce, kept in the state")
	assert.Equal(t, map[string]string{"run": "loop/7/1", "stage": "implement", "attempt": "1", "subject": "acme/widgets#7",
		"action": "implement", "context": `{"feedback":"","pr_number":7}`, "nonce": nonce}, eff.Inputs)
	assert.LessOrEqual(t, len(eff.Inputs), 10)
	require.Len(t, res.State.Runs[0].Intents, 1)

	// The same event again while the intent is in flight: nothing is dispatched.
	again := Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0.Add(time.Second))
	assert.Empty(t, again.Effects)

	res = dispatched(t, cfg, res, f, t0)
	run := res.State.Runs[0]
	assert.Empty(t, run.Intents)
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, model.StageWaiting, run.Stages["implement"].Status)
	assert.Contains(t, run.Stages["implement"].Message, "waiting for its report")

	// Any later event: the stage waits, nothing is dispatched again.
	later := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Hour))
	assert.Empty(t, later.Effects)
	assert.Equal(t, "implement", later.State.Runs[0].Stage)
}

func TestAgentDispatchOutcomeUnknownIsNotRepeated(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	// The invocation ended without recording the outcome; long after, another event.
	later := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(model.MaxIntentLease+time.Minute))
	assert.Empty(t, later.Effects, "a workflow dispatch whose outcome is unknown is never sent twice")
	run := later.State.Runs[0]
	assert.Empty(t, run.Intents)
	assert.Contains(t, run.Stages["implement"].Message, "not sent twice")
	assert.Equal(t, model.RunWaiting, run.Status)
}

func TestAgentCommentDispatchReconciledFromMarker(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchComment)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.True(t, eff.WriteAhead)
	assert.Contains(t, eff.Body, "@bot analyze #7")
	assert.Contains(t, eff.Body, "--run loop/7/1 --stage analyze --attempt 1")

	// The comment was posted but its outcome not recorded: its marker settles it.
	posted := prFacts()
	posted.PR.Posted = []string{eff.Key}
	after := Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, posted, t0.Add(model.MaxIntentLease+time.Hour))
	assert.Empty(t, after.Effects)
	assert.Contains(t, after.State.Runs[0].Applied, eff.Key)

	// Not posted, and the invocation has ended: asked for again under a new intent.
	again := Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, f, t0.Add(model.MaxIntentLease+time.Hour))
	require.Len(t, again.Effects, 1)
	assert.Equal(t, 2, again.State.Runs[0].Intents[0].Try)
}

func TestAgentLabelAndAssignDispatchAreNotWriteAhead(t *testing.T) {
	for _, kind := range []string{lang.DispatchLabel, lang.DispatchAssign} {
		cfg := agentConfig(t, kind)
		f := prFacts()
		res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
		res = dispatched(t, cfg, res, f, t0)
		res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0)
		require.Len(t, res.Effects, 1, kind)
		eff := res.Effects[0]
		assert.False(t, eff.WriteAhead, kind)
		assert.Empty(t, res.State.Runs[0].Intents, kind)
		if kind == lang.DispatchLabel {
			assert.Equal(t, []string{"analyze-me"}, eff.Labels)
		} else {
			assert.Equal(t, []string{"copilot"}, eff.Assignees)
		}
	}
}

// atAnalyze runs the loop config up to the analyzer waiting for its report.
func atAnalyze(t *testing.T, cfg *lang.Config, f *model.Facts) model.Result {
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, map[string]any{"commit": "abc"}), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	require.Equal(t, "analyze", res.State.Runs[0].Stage)
	return res
}

func TestAgentVerdicts(t *testing.T) {
	cases := []struct {
		verdict string
		stage   string
		status  model.RunStatus
	}{
		{lang.VerdictComplete, "done", model.RunWaiting},
		{lang.VerdictApprove, "done", model.RunWaiting}, // no on_approve: on_complete
		{lang.VerdictFollowup, "implement", model.RunRunning},
		{lang.VerdictRevise, "implement", model.RunRunning},
		{lang.VerdictReject, "analyze", model.RunFailed},
		{lang.VerdictFailed, "analyze", model.RunFailed}, // no on_failed: the run fails
	}
	for _, tc := range cases {
		t.Run(tc.verdict, func(t *testing.T) {
			cfg := agentConfig(t, lang.DispatchWorkflow)
			f := prFacts()
			res := atAnalyze(t, cfg, f)
			res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, tc.verdict, nil), f, t0.Add(time.Minute))
			run := res.State.Runs[0]
			assert.Equal(t, tc.stage, run.Stage)
			assert.Equal(t, tc.status, run.Status)
			assert.Equal(t, tc.verdict, run.Stages["analyze"].Verdict)
			assert.Equal(t, "aaaaaaaaaa", run.Stages["analyze"].HeadSHA, "the head the verdict was given on")
			if tc.verdict == lang.VerdictFailed {
				assert.Contains(t, run.Message, `has no on_failed`)
			}
			if tc.stage == "implement" {
				require.Len(t, res.Effects, 1)
				assert.Equal(t, "2", res.Effects[0].Inputs["attempt"], "a new attempt of the implementer")
			}
		})
	}
}

func TestAgentFollowupLoopCountsAndMergesContext(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := atAnalyze(t, cfg, f)
	for i := 1; i <= 2; i++ {
		res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", i, lang.VerdictFollowup, map[string]any{"feedback": "fix " + string(rune('0'+i))}), f, t0)
		run := res.State.Runs[0]
		require.Equal(t, "implement", run.Stage, "iteration %d", i)
		assert.Equal(t, i, run.Iterations["analyze/followup"])
		assert.Equal(t, "fix "+string(rune('0'+i)), run.Context["feedback"])
		require.Len(t, res.Effects, 1)
		var ctx map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.Effects[0].Inputs["context"]), &ctx))
		assert.Equal(t, "fix "+string(rune('0'+i)), ctx["feedback"], "the implementer is given the feedback")
		res = dispatched(t, cfg, res, f, t0)
		res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", i+1, lang.VerdictComplete, nil), f, t0)
		res = dispatched(t, cfg, res, f, t0)
	}
	// The third followup: iterations are spent, `then` applies.
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 3, lang.VerdictFollowup, map[string]any{"feedback": "still"}), f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.History[len(run.History)-1].Why, "on_followup has looped 2 of 2 times")
	assert.Equal(t, "still", run.Context["feedback"])
}

func TestAgentStaleReportsAreRefused(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := atAnalyze(t, cfg, f)
	cases := []struct {
		name string
		in   model.Input
		want string
	}{
		{"another stage", report("loop/7/1", "implement", 1, lang.VerdictComplete, nil), `the run is at stage "analyze", not "implement"`},
		{"older attempt", report("loop/7/1", "analyze", 0, lang.VerdictComplete, nil), "the stage is at attempt 1, not 0"},
		{"unknown run", report("loop/7/9", "analyze", 1, lang.VerdictComplete, nil), "no such run"},
		{"unknown verdict", report("loop/7/1", "analyze", 1, "lgtm", nil), `unknown verdict "lgtm"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := Step(cfg, res.State, tc.in, f, t0.Add(time.Minute))
			assert.False(t, out.Changed, "a refused report changes nothing")
			assert.Empty(t, out.Effects)
			assert.Contains(t, joinLog(out.Log), tc.want)
		})
	}
	// A finished run.
	done := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictReject, nil), f, t0)
	require.Equal(t, model.RunFailed, done.State.Runs[0].Status)
	out := Step(cfg, done.State, reportOn(done.State, "loop/7/1", "analyze", 1, lang.VerdictComplete, nil), f, t0)
	assert.False(t, out.Changed)
	assert.Contains(t, joinLog(out.Log), "the run is failed")
}

func TestAgentErrorRetriesThenFollowsThen(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	fail := func(attempt int) model.Input {
		return model.Input{Key: "wf", Event: "workflow_run.completed", AgentFailure: ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: attempt, Why: "workflow run concluded failure"})}
	}
	res = Step(cfg, res.State, fail(1), f, t0.Add(time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "implement", run.Stage)
	assert.Equal(t, 2, run.Stages["implement"].Attempt)
	assert.Equal(t, 1, run.Stages["implement"].Errors)
	require.Len(t, res.Effects, 1, "retry: a new dispatch")
	assert.Equal(t, "loop/7/1/implement/2/dispatch", res.Effects[0].Key)
	res = dispatched(t, cfg, res, f, t0)

	// The end of the first attempt's workflow, seen again: stale, ignored.
	stale := Step(cfg, res.State, fail(1), f, t0.Add(2*time.Minute))
	assert.False(t, stale.Changed)

	res = Step(cfg, res.State, fail(2), f, t0.Add(3*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "1 retry spent")
	assert.Empty(t, res.Effects)
}

func TestAgentReportResetsErrors(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, model.Input{Key: "wf", AgentFailure: ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: 1})}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 2, lang.VerdictComplete, nil), f, t0)
	assert.Equal(t, 0, res.State.Runs[0].Stages["implement"].Errors)
	assert.Equal(t, "analyze", res.State.Runs[0].Stage)
}

func TestAgentDispatchRefusedIsAnAgentError(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "404 workflow not found", Permanent: true}}, f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, 1, run.Stages["implement"].Errors)
	assert.Equal(t, 2, run.Stages["implement"].Attempt, "retried under on_error")

	// A transient refusal waits for the next event.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute))
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "502"}}, f, t0.Add(time.Minute))
	assert.Equal(t, model.StageRetrying, res.State.Runs[0].Stages["implement"].Status)
	assert.Empty(t, res.Effects)
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, f, t0.Add(2*time.Minute))
	require.Len(t, res.Effects, 1, "tried again on the next event")
}

func joinLog(lines []string) string {
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}

// A marker in what a template fills in (a PR title, an agent's feedback) cannot pass for a
// dispatch done: only a comment dispatch is known done from a marker, and the markers its
// templates would write are broken.
func TestAgentForgedMarkersDoNotCount(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchComment)
	cfg.Agents[1].Body = "@bot {{ github.pr.title }}"
	f := prFacts()
	f.PR.Title = "x " + model.EffectMarker("loop/7/1/analyze/2/dispatch")
	res := atAnalyze(t, cfg, f)
	require.Len(t, res.State.Runs[0].Applied, 2)
	// The analyzer's comment went out with the title in it, marker broken.
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictRevise, nil), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 2, lang.VerdictComplete, nil), f, t0)
	require.Len(t, res.Effects, 1)
	assert.NotContains(t, res.Effects[0].Body, "<!-- pipeline-action:effect")
	assert.Equal(t, 1, strings.Count(res.Effects[0].Body+model.EffectMarker(res.Effects[0].Key), "<!--"))

	// A workflow agent: a marker of its key on the PR (anyone's comment) is no dispatch.
	wf := agentConfig(t, lang.DispatchWorkflow)
	forged := prFacts()
	forged.PR.Posted = []string{"loop/7/1/implement/1/dispatch"}
	out := Step(wf, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, forged, t0)
	require.Len(t, out.Effects, 1, "dispatched all the same")
}

// The same report twice is the same as once: the second finds the stage moved on.
func TestAgentSameReportTwiceEqualsOnce(t *testing.T) {
	for _, v := range agent.Verdicts {
		cfg := agentConfig(t, lang.DispatchWorkflow)
		f := prFacts()
		res := atAnalyze(t, cfg, f)
		in := reportOn(res.State, "loop/7/1", "analyze", 1, v, map[string]any{"feedback": "x"})
		once := Step(cfg, res.State, in, f, t0.Add(time.Minute))
		twice := Step(cfg, once.State, in, f, t0.Add(2*time.Minute))
		assert.False(t, twice.Changed, v)
		assert.Empty(t, twice.Effects, v)
		assert.Equal(t, string(model.MustJSON(once.State)), string(model.MustJSON(twice.State)), v)
	}
}

// A new attempt clears the verdict of the last: an approval stands for its own head only.
func TestAgentNewAttemptClearsTheVerdict(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	cfg.Pipelines[0].Stages[1].Verdicts[lang.VerdictApprove] = &lang.Rule{Goto: "analyze", MaxIterations: 1, Then: lang.TargetFail}
	f := prFacts()
	res := atAnalyze(t, cfg, f)
	moved := prFacts()
	moved.PR.HeadSHA = "bbbbbbbbbb"
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictApprove, nil), moved, t0)
	require.Len(t, res.Effects, 1, "approve loops back to a new attempt")
	sr := res.State.Runs[0].Stages["analyze"]
	assert.Equal(t, 2, sr.Attempt)
	assert.Empty(t, sr.Verdict)
	assert.Equal(t, "bbbbbbbbbb", sr.HeadSHA)
}
