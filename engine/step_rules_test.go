package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// failingOn fails when the PR carries label, else pends.
func failingOn(label string) Check {
	return checkFunc(func(f *model.Facts) model.GateResult {
		if f.PR.HasLabel(label) {
			return model.GateResult{Status: model.GateFail, Message: label + " is set"}
		}
		return model.GateResult{Status: model.GatePending, Message: "waiting"}
	})
}

// ruleConfig: fix (a gate on label "fixed") → review (a gate that fails on "bad", with
// on_fail rule) → complete.
func ruleConfig(rule *lang.Rule) *lang.Config {
	return &lang.Config{Version: 1,
		Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice"}}},
		Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{
			{ID: "fix", Type: lang.StageGate, OnPass: "review", Conditions: []lang.Condition{{Check: "fixed", Eval: labelCheck("fixed")}}},
			{ID: "review", Type: lang.StageGate, OnPass: lang.TargetComplete, OnFailRule: rule, Conditions: []lang.Condition{
				{Check: "no_changes_requested", Eval: failingOn("bad")},
				{Check: "other", Eval: failingOn("other-bad")},
			}},
		}}}}
}

func TestGateOnFailLoopsBackThenGivesUp(t *testing.T) {
	cfg := ruleConfig(&lang.Rule{Goto: "fix", MaxIterations: 2, Then: lang.TargetFail})
	var st *model.State
	step := func(key string, labels ...string) model.Result {
		res := Step(cfg, st, model.Input{Key: key, Event: "pull_request.labeled"}, prFacts(labels...), t0)
		st = res.State
		return res
	}
	st = Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.opened"}, prFacts(), t0).State
	for i := 1; i <= 2; i++ {
		require.Equal(t, "review", step("k-fixed", "fixed").State.Runs[0].Stage)
		run := step("k-bad", "bad").State.Runs[0]
		require.Equal(t, "fix", run.Stage, "loop %d goes back", i)
		assert.Equal(t, model.RunWaiting, run.Status)
		assert.Equal(t, i, run.Iterations["review/on_fail"])
	}
	res := step("k3", "fixed", "bad")
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "gate failed: bad is set; on_fail looped back 2 times already, its maximum")
}

func TestGateOnFailLoopsWithinOneEventAreBounded(t *testing.T) {
	// The gate looped back to passes at once: the loops are made in one event, up to the maximum.
	cfg := ruleConfig(&lang.Rule{Goto: "fix", MaxIterations: 3, Then: lang.TargetFail})
	res := Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.opened"}, prFacts("fixed", "bad"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, 3, run.Iterations["review/on_fail"])
}

func TestGateOnFailNotifyAndWait(t *testing.T) {
	cfg := ruleConfig(&lang.Rule{WhenCheckFailed: "no_changes_requested", Action: rules.ActionNotifyAndWait,
		Notify: &lang.Notify{Target: mustTemplate("maintainers"), Message: mustTemplate("Changes requested on #{{ github.pr.number }}")}})
	// Another check failing: the gate just waits.
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("fixed", "other-bad"), t0)
	require.Equal(t, "review", res.State.Runs[0].Stage)
	assert.Empty(t, res.Effects)

	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("fixed", "bad"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectComment, eff.Kind)
	assert.Equal(t, "@alice Changes requested on #7", eff.Body)
	assert.True(t, eff.WriteAhead)
	assert.Contains(t, run.Applied, eff.Key, "recorded when asked for: at most once")

	// The next event does not notify again for the same head.
	again := Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, prFacts("fixed", "bad"), t0)
	assert.Empty(t, again.Effects)
	assert.Equal(t, model.RunWaiting, again.State.Runs[0].Status)
	// Its outcome changes nothing.
	settled := Settle(cfg, res.State, model.Input{Key: "k2"}, []model.Outcome{{Key: eff.Key}}, prFacts("fixed", "bad"), t0)
	assert.Empty(t, settled.Effects)
	assert.Equal(t, "review", settled.State.Runs[0].Stage)
}

// mergeConfig: a gate on "ok" then merge_pr with the given rules.
func mergeConfig(onConflict, onCI *lang.Rule) *lang.Config {
	cfg := stepConfig()
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice"}}}
	cfg.Pipelines[0].Stages[1].OnConflict = onConflict
	cfg.Pipelines[0].Stages[1].OnCIFailure = onCI
	return cfg
}

func TestMergeOnConflictNotifiesAndLabelsOnce(t *testing.T) {
	cfg := mergeConfig(&lang.Rule{Notify: &lang.Notify{Target: mustTemplate("maintainers")}, Labels: []string{"merge-conflict"}}, nil)
	f := prFacts("ok")
	f.PR.Mergeable = model.Conflicting
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, "merge", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status, "held until the conflicts are resolved")
	require.Len(t, res.Effects, 2)
	assert.Equal(t, model.EffectLabel, res.Effects[0].Kind)
	assert.Equal(t, []string{"merge-conflict"}, res.Effects[0].Labels)
	assert.Equal(t, model.EffectComment, res.Effects[1].Kind)
	assert.Contains(t, res.Effects[1].Body, "@alice ")

	f2 := prFacts("ok", "merge-conflict")
	f2.PR.Mergeable = model.Conflicting
	again := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f2, t0)
	assert.Empty(t, again.Effects)

	// Resolved: it merges.
	resolved := Step(cfg, again.State, model.Input{Key: "k3", Event: "pull_request.synchronize"}, prFacts("ok", "merge-conflict"), t0)
	require.Len(t, resolved.Effects, 1)
	assert.Equal(t, model.EffectMerge, resolved.Effects[0].Kind)

	// With a target, the run goes there.
	cfg = mergeConfig(&lang.Rule{Goto: lang.TargetFail}, nil)
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, "conflicts with its base branch")
}

func TestMergeOnCIFailureLoops(t *testing.T) {
	cfg := mergeConfig(nil, &lang.Rule{Goto: "ready", MaxIterations: 1, Then: lang.TargetFail})
	red := prFacts("ok")
	red.PR.Checks = []model.CheckResult{{Name: "test", State: model.CheckFailure}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, red, t0)
	run := res.State.Runs[0]
	// The gate passes on "ok", the merge sees CI red and loops back once; the gate passes
	// again at once, and the second failure spends the loop.
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, 1, run.Iterations["merge/on_ci_failure"])
	assert.Contains(t, run.Message, "CI failed on aaaaaaa: test")
	assert.Empty(t, res.Effects)

	green := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, green.Effects, 1)
	assert.Equal(t, model.EffectMerge, green.Effects[0].Kind)
}
