package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// conditionConfig: a security review run only when the PR carries `security` or touches
// auth code, then a review, then a gate on label "ok".
func conditionConfig(t *testing.T, cond *lang.Predicate) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "sec", Dispatch: lang.DispatchLabel, Label: "sec-review"}, {Name: "rev", Dispatch: lang.DispatchLabel, Label: "review"}},
		Pipelines: []*lang.Pipeline{{
			Name:    "p",
			Trigger: lang.Trigger{Event: "pull_request.opened"},
			Stages: []*lang.Stage{
				{ID: "security", Type: lang.StageAgent, Agent: "sec", AgentAction: "review", Condition: cond, SkipTo: "review", OnComplete: "review"},
				{ID: "review", Type: lang.StageAgent, Agent: "rev", AgentAction: "review", OnComplete: "done"},
				{ID: "done", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			},
		}}}
}

func securityCondition() *lang.Predicate {
	return &lang.Predicate{Any: []lang.Predicate{
		{LabelsInclude: []string{"security"}},
		{PathsMatch: []string{"src/**/auth/**", "**/security/**"}},
	}}
}

func TestStageConditionHoldsOrSkips(t *testing.T) {
	open := model.Input{Key: "k1", Event: "pull_request.opened"}
	cases := []struct {
		name   string
		labels []string
		files  []string
		at     string // the stage the run waits at
	}{
		{"labelled security", []string{"Security"}, []string{"README.md"}, "security"},
		{"touches auth code deep down", nil, []string{"docs/x.md", "src/a/b/auth/token.go"}, "security"},
		{"touches a security directory", nil, []string{"pkg/security/x.go"}, "security"},
		{"neither", nil, []string{"src/auth.go", "docs/security.md"}, "review"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := prFacts(tc.labels...)
			f.PR.Files, f.PR.FilesRead = tc.files, true
			res := Step(conditionConfig(t, securityCondition()), nil, open, f, t0)
			run := res.State.Runs[0]
			require.Equal(t, tc.at, run.Stage, run.Message)
			if tc.at == "review" {
				assert.Equal(t, model.StageSkipped, run.Stages["security"].Status)
				assert.Contains(t, run.History[len(run.History)-1].Why, "condition does not hold")
			} else {
				assert.True(t, run.Stages["security"].ConditionChecked)
			}
		})
	}
}

func TestStageConditionDecidedOncePerAttempt(t *testing.T) {
	cfg := conditionConfig(t, &lang.Predicate{LabelsInclude: []string{"security"}})
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("security"), t0)
	require.Equal(t, "security", res.State.Runs[0].Stage)
	// The label goes away while the agent works: the stage that started is not skipped.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.unlabeled"}, prFacts(), t0)
	run := res.State.Runs[0]
	assert.Equal(t, "security", run.Stage)
	assert.NotEqual(t, model.StageSkipped, run.Stages["security"].Status)
}

func TestStageConditionUndecidableStopsTheRun(t *testing.T) {
	cfg := conditionConfig(t, &lang.Predicate{PathsMatch: []string{"src/**"}})
	// The changed files were not read.
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "changed files of the pull request were not read")
	assert.True(t, res.NeedsFiles, "the caller is told to read them and evaluate again")

	// GitHub listed only the first files and none of those matches: it cannot be decided.
	f := prFacts()
	f.PR.Files, f.PR.FilesRead, f.PR.FilesTruncated = []string{"docs/a.md"}, true, true
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, "cannot be decided")

	// A match among the files listed decides it even so.
	f.PR.Files = []string{"src/x.go"}
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Equal(t, "security", res.State.Runs[0].Stage)
	assert.False(t, res.NeedsFiles)

	// An expression that fails to run stops the run too.
	e, cerr := lang.CompileExpr("context.missing.deep == 1", lang.Pos{Line: 4, Col: 7})
	require.Nil(t, cerr)
	res = Step(conditionConfig(t, &lang.Predicate{Expr: e, Pos: lang.Pos{Line: 4, Col: 7}}), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, `condition "context.missing.deep == 1" at 4:7`)
}

func TestStageConditionExpressionOverTheRun(t *testing.T) {
	e, cerr := lang.CompileExpr("github.pr.draft == false && len(github.pr.labels) > 0", lang.Pos{Line: 1, Col: 1})
	require.Nil(t, cerr)
	cfg := conditionConfig(t, &lang.Predicate{Expr: e})
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("x"), t0)
	assert.Equal(t, "security", res.State.Runs[0].Stage)
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Equal(t, "review", res.State.Runs[0].Stage)
}

// guardConditionConfig: a gate on label "approved" run only for PRs labelled "risky";
// others go straight to the merge.
func guardConditionConfig(cond *lang.Predicate) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:    "p",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{
			{ID: "risk", Type: lang.StageGate, Condition: cond, SkipTo: "merge", OnPass: "merge",
				Conditions: []lang.Condition{{Check: "approved", Eval: labelCheck("approved")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		},
	}}}
}

func merges(res model.Result) int {
	n := 0
	for _, e := range res.Effects {
		if e.Kind == model.EffectMerge {
			n++
		}
	}
	return n
}

func TestGuardDecidesASkippedGateFromToday(t *testing.T) {
	cfg := guardConditionConfig(&lang.Predicate{LabelsInclude: []string{"risky"}})
	open := model.Input{Key: "k1", Event: "pull_request.opened"}
	// Not risky: the gate is skipped and the merge goes ahead.
	res := Step(cfg, nil, open, prFacts(), t0)
	assert.Equal(t, 1, merges(res), res.State.Runs[0].Message)
	// Risky and not approved: it waits at the gate.
	res = Step(cfg, nil, open, prFacts("risky"), t0)
	assert.Equal(t, 0, merges(res))
	assert.Equal(t, "risk", res.State.Runs[0].Stage)

	// A stored state that says the gate was skipped while the PR is risky today: no merge.
	forged := &model.State{Version: 1, Runs: []*model.Run{{ID: "p/7/1", Pipeline: "p", ConfigOID: "blob1", Subject: "acme/widgets#7",
		Status: model.RunRunning, Stage: "merge", Stages: map[string]*model.StageRun{
			"risk": {Status: model.StageSkipped, Attempt: 1}, "merge": {Status: model.StageWaiting, Attempt: 1}}}}}
	res = Step(cfg, forged, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("risky"), t0)
	assert.Equal(t, 0, merges(res))
	assert.Equal(t, "risk", res.State.Runs[0].Stage, "the run goes back to the gate")

	// A condition over the run's own context never lets a merge skip a gate: the context
	// is stored state.
	e, cerr := lang.CompileExpr("context.risky == true", lang.Pos{Line: 1, Col: 1})
	require.Nil(t, cerr)
	cfg = guardConditionConfig(&lang.Predicate{Expr: e})
	res = Step(cfg, nil, open, prFacts(), t0)
	assert.Equal(t, 0, merges(res), "the guard does not take the run's word for a skip")
}
