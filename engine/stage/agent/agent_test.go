package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `version: 1
agents:
  impl: {dispatch: workflow, workflow: impl.yml}
  judge: {dispatch: comment, body: "@judge please look", login: judge-bot}
  tagger: {dispatch: label, label: agent-go}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: implement
        type: agent
        agent: impl
        action: implement
        on_complete: judge
        on_error: {retry: 1, then: fail}
        outputs_schema:
          type: object
          required: [risk]
          properties:
            risk: {type: string, enum: [low, high]}
      - id: judge
        type: agent
        agent: judge
        on_complete: tag
        on_reject: {goto: implement, max_iterations: 2, then: fail}
      - id: tag
        type: agent
        agent: tagger
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// signer signs by prefixing: enough to tell a signed nonce from a forged one.
type signer struct{}

func (signer) SignNonce(msg string) string { return "s" + strings.ReplaceAll(msg, "\x00", "|")[:12] }
func (signer) VerifyNonce(msg, tag string) bool {
	return tag == signer{}.SignNonce(msg)
}

func setup(t *testing.T, id string) (*stagetest.Context, *model.Run, *lang.Stage) {
	t.Helper()
	cfg := stagetest.Config(t, src)
	p := cfg.Pipeline("p")
	run, s := stagetest.At(t, p, id)
	c := stagetest.New(p, now)
	c.Cfg, c.Subj, c.Deliv, c.Sign = cfg, "o/r#7", "d-1", signer{}
	c.F.DefaultBranch, c.F.Viewer = "main", "pipeline-bot"
	return c, run, s
}

// A workflow dispatch is written ahead and carries the attempt's signed nonce; once it is
// performed the stage waits for the report and does not dispatch again.
func TestStepDispatchesOncePerAttempt(t *testing.T) {
	c, run, s := setup(t, "implement")
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, s))
	require.Len(t, c.Emitted, 1)
	require.Len(t, c.Intended, 1, "a workflow dispatch is written ahead")
	eff := c.Emitted[0]
	assert.Equal(t, "p#1/implement/1/dispatch", eff.Key)
	assert.Equal(t, "main", eff.Ref)
	sr := run.Stages["implement"]
	assert.Equal(t, model.StageActing, sr.Status)
	assert.True(t, strings.HasPrefix(sr.Nonce, "1-"))
	assert.Equal(t, sr.Nonce+"."+signer{}.SignNonce(model.NonceMessage("o/r#7", run.ID, "implement", sr.Nonce)), eff.Inputs["nonce"])

	run.Applied = append(run.Applied, eff.Key)
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, s))
	assert.Len(t, c.Emitted, 1, "never dispatched twice")
	assert.Equal(t, model.StageWaiting, sr.Status)
	assert.Equal(t, model.RunWaiting, run.Status)
	require.Len(t, sr.Results, 1)
	assert.Equal(t, model.GatePending, sr.Results[0].Status)
}

// A label dispatch is not written ahead (GitHub deduplicates it), and the status shows the
// nonce the agent reports with.
func TestStepLabelShowsTheNonce(t *testing.T) {
	c, run, s := setup(t, "tag")
	Type{}.Step(c, run, s)
	require.Len(t, c.Emitted, 1)
	assert.Empty(t, c.Intended)
	assert.Equal(t, []string{"agent-go"}, c.Emitted[0].Labels)
	run.Applied = append(run.Applied, c.Emitted[0].Key)
	Type{}.Step(c, run, s)
	assert.Contains(t, run.Stages["tag"].Message, "--nonce "+run.Stages["tag"].Nonce+".s")
}

func TestStepUnknownAgentIsTheStagesError(t *testing.T) {
	c, run, s := setup(t, "implement")
	c.Cfg = nil
	assert.Equal(t, stage.Error(`agent "impl" is not in the config`), Type{}.Step(c, run, s))
	assert.Empty(t, c.Emitted)
}

// dispatched is c, run and s with the attempt of s dispatched, and the nonce its report
// echoes.
func dispatched(t *testing.T, id string) (*stagetest.Context, *model.Run, *lang.Stage, string) {
	c, run, s := setup(t, id)
	Type{}.Step(c, run, s)
	eff := c.Emitted[0]
	run.Applied = append(run.Applied, eff.Key)
	sr := run.Stages[id]
	return c, run, s, dispatchNonce(c, run, id, sr)
}

func TestReportRefusedWithoutTheLiveNonce(t *testing.T) {
	c, run, s, nonce := dispatched(t, "implement")
	r := &model.Report{Run: run.ID, Stage: s.ID, Attempt: 1, Verdict: lang.VerdictComplete, Outputs: map[string]any{"risk": "low"}}
	for _, got := range []string{"", "1-0000000000000000", strings.SplitN(nonce, ".", 2)[0], strings.SplitN(nonce, ".", 2)[0] + ".forged"} {
		r.Nonce = got
		assert.Equal(t, stage.Stay(), Type{}.Report(c, run, s, r), "nonce %q", got)
	}
	assert.Len(t, c.Log, 4)
	assert.Contains(t, c.Log[3], "not signed with the state key")

	run.Status = model.RunEscalated
	r.Nonce = nonce
	assert.Equal(t, stage.Stay(), Type{}.Report(c, run, s, r), "an escalated run takes no report")
	assert.Contains(t, c.Log[4], "the run is escalated")
}

func TestReportVerdictPicksTheTransition(t *testing.T) {
	c, run, s, nonce := dispatched(t, "implement")
	r := &model.Report{Run: run.ID, Stage: s.ID, Attempt: 1, Verdict: lang.VerdictComplete, Nonce: nonce, Outputs: map[string]any{"risk": "low"}}
	d := Type{}.Report(c, run, s, r)
	assert.Equal(t, stage.LeaveWith(lang.VerdictComplete, model.StageSucceeded, "judge", "agent impl reported complete (attempt 1)"), d)
	sr := run.Stages["implement"]
	assert.Equal(t, lang.VerdictComplete, sr.Verdict)
	assert.Equal(t, map[string]any{"risk": "low"}, c.Associated["implement"], "the outputs are offered for association")
	assert.Equal(t, "abc1234def", sr.HeadSHA)

	c, run, s, nonce = dispatched(t, "judge")
	r = &model.Report{Run: run.ID, Stage: s.ID, Attempt: 1, Verdict: lang.VerdictReject, Nonce: nonce}
	d = Type{}.Report(c, run, s, r)
	assert.Equal(t, stage.FollowVerdict(s.Verdicts[lang.VerdictReject], lang.VerdictReject, "agent judge reported reject (attempt 1)"), d)
	require.NotNil(t, d.Rule)
	assert.Equal(t, "on_reject", d.RuleKind)

	r.Verdict = lang.VerdictRevise
	d = Type{}.Report(c, run, s, r)
	assert.Nil(t, d.Rule, "judge has no on_revise")
	assert.False(t, d.Leave)
	assert.Equal(t, lang.VerdictRevise, d.Verdict, "the kernel fails the run, or the join takes the branch's")
}

func TestReportOutputsOutsideTheSchemaAreTheStagesError(t *testing.T) {
	c, run, s, nonce := dispatched(t, "implement")
	r := &model.Report{Run: run.ID, Stage: s.ID, Attempt: 1, Verdict: lang.VerdictComplete, Nonce: nonce, Outputs: map[string]any{"risk": "none"}}
	d := Type{}.Report(c, run, s, r)
	assert.NotEmpty(t, d.Error)
	assert.Contains(t, d.Error, "do not match outputs_schema")
	assert.Nil(t, run.Stages["implement"].Outputs, "outputs that do not match are not kept")
	assert.Contains(t, run.Applied, "p#1/implement/1/dispatch", "the report proves the dispatch")

	r.Verdict = lang.VerdictFailed
	assert.Empty(t, Type{}.Report(c, run, s, r).Error, "a failed verdict is not held to the schema")
}

// Only the workflow run the action itself dispatched fails the stage.
func TestFailureOnlyOfTheAgentsOwnRun(t *testing.T) {
	c, run, s, _ := dispatched(t, "implement")
	own := model.AgentFailure{Run: run.ID, Stage: s.ID, Attempt: 1, Path: ".github/workflows/impl.yml", Branch: "main",
		Event: "workflow_dispatch", Actor: "pipeline-bot", TriggeringActor: "Pipeline-Bot", RunID: 42, Why: "cancelled"}
	others := map[string]func(f *model.AgentFailure){
		"another file":     func(f *model.AgentFailure) { f.Path = ".github/workflows/other.yml" },
		"another branch":   func(f *model.AgentFailure) { f.Branch = "feature" },
		"another event":    func(f *model.AgentFailure) { f.Event = "push" },
		"a person's rerun": func(f *model.AgentFailure) { f.TriggeringActor = "mallory" },
	}
	for name, change := range others {
		f := own
		change(&f)
		assert.Equal(t, stage.Stay(), Type{}.Failure(c, run, s, &f), name)
	}
	assert.Len(t, c.Log, len(others))
	run.Stages["implement"].AgentRun = 41
	assert.Equal(t, stage.Stay(), Type{}.Failure(c, run, s, &own), "another run than the one dispatched")
	run.Stages["implement"].AgentRun = 42
	assert.Equal(t, stage.Error("agent impl ended without a report (cancelled)"), Type{}.Failure(c, run, s, &own))
}

// An agent with a login answers by its review of the head: its verdict, given when the
// review was submitted.
func TestReviewIsTheAttemptsReport(t *testing.T) {
	c, run, s, _ := dispatched(t, "judge")
	run.Stages["judge"].EnteredAt = now.Add(-time.Hour)
	at := now.Add(time.Minute) // GitHub's clock is ahead
	c.F.PR.Reviews = []model.Review{{Author: "Judge-Bot", State: model.ReviewChangesRequested, CommitSHA: "abc1234def", SubmittedAt: at, Body: "add tests"}}
	d := Type{}.Step(c, run, s)
	assert.Equal(t, lang.VerdictReject, d.Verdict)
	assert.Same(t, s.Verdicts[lang.VerdictReject], d.Rule)
	assert.Equal(t, at, d.Answered)
	assert.Equal(t, "add tests", run.Stages["judge"].Outputs["feedback"])
}
