package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// checkFunc adapts a function to Check, for tests that need no real gates.
type checkFunc func(*model.Facts) model.GateResult

func (f checkFunc) Evaluate(fa *model.Facts) model.GateResult { return f(fa) }

// labelCheck passes when the PR carries label.
func labelCheck(label string) Check {
	return checkFunc(func(f *model.Facts) model.GateResult {
		if f.PR.HasLabel(label) {
			return model.GateResult{Status: model.GatePass, Message: "has " + label}
		}
		return model.GateResult{Status: model.GatePending, Message: "needs " + label}
	})
}

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func stepConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:     "auto-merge",
		Trigger:  lang.Trigger{Event: "pull_request.opened", BaseBranch: "main"},
		OnEvents: []lang.EventReaction{{Event: "pull_request.closed", Action: lang.ReactCancel}},
		Stages: []*lang.Stage{
			{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{
				{Check: "ok", Eval: labelCheck("ok")},
				{Check: "nice", Optional: true, Eval: labelCheck("nice")},
			}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash"}, OnSuccess: lang.TargetComplete},
		},
	}}}
}

func prFacts(labels ...string) *model.Facts {
	return &model.Facts{Repo: "acme/widgets", DefaultBranch: "main", PR: &model.PullRequest{
		Number: 7, State: model.PROpen, BaseRef: "main", HeadRef: "feat", HeadSHA: "aaaaaaaaaa", Labels: labels,
	}}
}

func TestStepStartsOnlyOnMatchingTrigger(t *testing.T) {
	cases := []struct {
		name  string
		event string
		base  string
		runs  int
	}{
		{"opened into main", "pull_request.opened", "main", 1},
		{"opened into another base", "pull_request.opened", "develop", 0},
		{"another event", "pull_request.labeled", "main", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := prFacts()
			f.PR.BaseRef = tc.base
			res := Step(stepConfig(), nil, model.Input{Key: "k1", Event: tc.event}, f, t0)
			require.Len(t, res.State.Runs, tc.runs)
			assert.Equal(t, tc.runs > 0, res.Changed)
		})
	}
}

func TestStepGateWaitsThenMerges(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Len(t, res.State.Runs, 1)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, "ready", run.Stage)
	assert.Equal(t, "blob1", run.ConfigOID)
	require.Len(t, run.Stages["ready"].Results, 2)
	assert.Equal(t, model.GatePending, run.Stages["ready"].Results[0].Status)
	assert.True(t, run.Stages["ready"].Results[1].Optional)
	assert.Empty(t, res.Effects)

	// The same facts again change nothing.
	again := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts(), t0.Add(time.Minute))
	assert.False(t, again.Changed)
	assert.Equal(t, res.State.Seq, again.State.Seq)

	// The label arrives with an event the pipeline does not list: level-triggered.
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, prFacts("ok"), t0.Add(2*time.Minute))
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectMerge, eff.Kind)
	assert.Equal(t, "aaaaaaaaaa", eff.SHA)
	assert.Equal(t, "squash", eff.Method)
	assert.Equal(t, "auto-merge/7/1/merge/1/merge_pr", eff.Key)

	res = Settle(cfg, res.State, model.Input{Actor: "bot"}, []model.Outcome{{Key: eff.Key}}, prFacts("ok"), t0.Add(2*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status)
	assert.Contains(t, run.Applied, eff.Key)
	assert.Empty(t, res.Effects)

	// Redelivering the opening event starts nothing and performs nothing.
	merged := prFacts("ok")
	merged.PR.State = model.PRMerged
	re := Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened"}, merged, t0.Add(3*time.Minute))
	assert.Empty(t, re.Effects)
	assert.Len(t, re.State.Runs, 1)
	assert.False(t, re.Changed)
}

func TestStepRefusedMergeIsRetried(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{Actor: "bot"}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge refused: Pull Request is not mergeable"}}, prFacts("ok"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, model.StageRetrying, run.Stages["merge"].Status)
	assert.Contains(t, run.Stages["merge"].Message, "tried 1 time; trying again on the next event")

	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(time.Minute))
	require.Len(t, res.Effects, 1, "the merge is tried again")
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)
}

func TestStepHeadMovedAfterGateGoesBackToGate(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{Actor: "bot"}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge refused: head branch was modified"}}, prFacts("ok"), t0)

	moved := prFacts() // new head, and the label that passed the gate is gone
	moved.PR.HeadSHA = "bbbbbbbbbb"
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, moved, t0.Add(time.Minute))
	assert.Empty(t, res.Effects, "nothing unverified is merged")
	run := res.State.Runs[0]
	assert.Equal(t, "ready", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, 2, run.Stages["ready"].Attempt)
	assert.Contains(t, run.History[len(run.History)-1].Why, "head moved from aaaaaaa to bbbbbbb")
}

func TestStepCancelReaction(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	closed := prFacts()
	closed.PR.State = model.PRClosed
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.closed"}, closed, t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, model.RunCancelled, run.Status)
	assert.Equal(t, model.StageCancelled, run.Stages["ready"].Status)
	assert.Empty(t, res.Effects)
}

func TestStepDoesNotModifyInput(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	before := model.MustJSON(res.State)
	Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(time.Minute))
	assert.Equal(t, string(before), string(model.MustJSON(res.State)))
}

func TestStepActionLabelsReconcile(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{{
		Name:    "label",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{
			{ID: "tag", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"a", "b"}}, OnSuccess: lang.TargetComplete},
		},
	}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("a"), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, []string{"b"}, res.Effects[0].Labels, "a present label is not added again")

	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("a", "b"), t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
}

// A config built by hand, past the loader, with what Step cannot execute: the run stops
// there loudly instead of skipping it.
func TestStepRefusesWhatItCannotExecute(t *testing.T) {
	at := lang.Pos{File: ".github/pipelines.yaml", Line: 12, Col: 9}
	cases := []struct {
		name  string
		stage *lang.Stage
		pipe  func(*lang.Pipeline)
		want  string
	}{
		{"stage type missing from the step table", &lang.Stage{ID: "g", Type: "loop", Pos: at, OnSuccess: lang.TargetComplete}, nil,
			`not supported yet: stage type "loop" (stage "g" at .github/pipelines.yaml:12:9)`},
		{"merge branch of a pull request's run", &lang.Stage{ID: "x", Type: lang.StageParallel, Pos: at, Join: lang.JoinAll,
			Branches: []*lang.Stage{{ID: "m", Type: lang.StageAction, Action: lang.ActionMergePR, Pos: at, Config: lang.ActionConfig{PR: mustTemplate("{{ context.pr_number }}")}}}}, nil,
			`merge_pr as a branch (branch "m" at .github/pipelines.yaml:12:9) in a pull request's run`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &lang.Pipeline{Name: "p", Pos: at, Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{tc.stage}}
			if tc.pipe != nil {
				tc.pipe(p)
			}
			res := Step(&lang.Config{Pipelines: []*lang.Pipeline{p}}, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
			require.Len(t, res.State.Runs, 1)
			run := res.State.Runs[0]
			assert.Equal(t, model.RunFailed, run.Status)
			assert.Contains(t, run.Message, tc.want)
			assert.Empty(t, res.Effects, "nothing is done past what Step cannot execute")
		})
	}
}

func TestStepRunFollowsTheConfigItStartedUnder(t *testing.T) {
	v1 := stepConfig() // the gate needs label "ok"
	res := Step(v1, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Equal(t, "blob1", res.State.Runs[0].ConfigOID)

	v2 := stepConfig() // the new config needs label "go" instead
	v2.BlobOID = "blob2"
	v2.Pipelines[0].Stages[0].Conditions[0] = lang.Condition{Check: "go", Eval: labelCheck("go")}

	// Without the old config at hand, the run follows the new one.
	moved := Step(v2, res.State, model.Input{Key: "k2", Event: "status"}, prFacts("go"), t0)
	require.Len(t, moved.Effects, 1)

	// With it pinned, the run keeps the rule it started with.
	v2.Pinned = map[string]*lang.Config{"blob1": v1}
	held := Step(v2, res.State, model.Input{Key: "k2", Event: "status"}, prFacts("go"), t0)
	assert.Empty(t, held.Effects)
	assert.Equal(t, "ok", held.State.Runs[0].Stages["ready"].Results[0].Check)
	passes := Step(v2, res.State, model.Input{Key: "k3", Event: "status"}, prFacts("ok"), t0)
	assert.Len(t, passes.Effects, 1)
}

func TestStepMergeWaitsForDraftAndConflicts(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*model.PullRequest)
		want string
	}{
		{"draft", func(pr *model.PullRequest) { pr.Draft = true }, "the pull request is a draft"},
		{"conflicts", func(pr *model.PullRequest) { pr.Mergeable = model.Conflicting }, "conflicts with its base branch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := prFacts("ok")
			tc.mod(f.PR)
			res := Step(stepConfig(), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
			assert.Empty(t, res.Effects, "no merge is asked of GitHub")
			run := res.State.Runs[0]
			assert.Equal(t, model.RunWaiting, run.Status)
			assert.Equal(t, "merge", run.Stage)
			require.Len(t, run.Stages["merge"].Results, 1)
			assert.Contains(t, run.Stages["merge"].Results[0].Message, tc.want)

			ready := prFacts("ok")
			res = Step(stepConfig(), res.State, model.Input{Key: "k2", Event: "pull_request.ready_for_review"}, ready, t0)
			assert.Len(t, res.Effects, 1, "merged once the reason is gone")
		})
	}
}

func TestStepRetriedMergeRechecksTheGate(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge refused (405): Pull Request is not mergeable"}}, prFacts("ok"), t0)
	// The label that satisfied the gate is gone by the next event: no retry, back to the gate.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.unlabeled"}, prFacts(), t0)
	assert.Empty(t, res.Effects)
	run := res.State.Runs[0]
	assert.Equal(t, "ready", run.Stage)
	assert.Contains(t, run.History[len(run.History)-1].Why, `gate "ready" no longer holds (ok: needs ok)`)
}

// A redelivered trigger never starts a second run, even when the first one has ended
// (failed here), so nothing it did is done again.
func TestStepRedeliveredTriggerAfterAFailedRun(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge refused (403): forbidden", Permanent: true}}, prFacts("ok"), t0)
	require.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	again := Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	assert.Len(t, again.State.Runs, 1)
	assert.Empty(t, again.Effects)
	assert.False(t, again.Changed)
}

// absentLabel passes while the PR does not carry label.
func absentLabel(label string) Check {
	return checkFunc(func(f *model.Facts) model.GateResult {
		if f.PR.HasLabel(label) {
			return model.GateResult{Status: model.GatePending, Message: "held by " + label}
		}
		return model.GateResult{Status: model.GatePass, Message: "no " + label}
	})
}

func TestStepLowerPriorityActsFirst(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{
		{Name: "merge", Priority: 20, Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
			{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "no-hold", Eval: absentLabel("hold")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		}},
		{Name: "hold", Priority: 10, Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
			{ID: "hold", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"hold"}}, OnSuccess: "wait"},
			{ID: "wait", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
		}},
	}}
	in := model.Input{Key: "k1", Event: "pull_request.labeled"}
	res := Step(cfg, nil, in, prFacts(), t0)
	require.Len(t, res.Effects, 1, "only the pipeline of lower priority (10) acts in the first round")
	assert.Equal(t, model.EffectAddLabel, res.Effects[0].Kind)

	held := prFacts("hold") // what the shell knows once the label is added
	res = Settle(cfg, res.State, in, []model.Outcome{{Key: res.Effects[0].Key}}, held, t0)
	assert.Empty(t, res.Effects, "the merge, of priority 20, sees the hold")
	for _, run := range res.State.Runs {
		assert.Equal(t, model.RunWaiting, run.Status, run.Pipeline)
	}
}

func TestStepCommentAlreadyPostedIsNotPostedAgain(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{{
		Name: "thank", Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{{ID: "say", Type: lang.StageAction, Action: lang.ActionComment, Config: lang.ActionConfig{Body: "Thanks!"}, OnSuccess: lang.TargetComplete}},
	}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Len(t, res.Effects, 1)
	key := res.Effects[0].Key

	// The comment went out but its state was never saved: the next event starts from
	// the old state, and the comment's own marker says it is done.
	f := prFacts()
	f.PR.Posted = model.PostedEffects("Thanks!\n\n" + model.EffectMarker(key))
	again := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, again.Effects)
	assert.Equal(t, model.RunCompleted, again.State.Runs[0].Status)
}

func TestPostedEffects(t *testing.T) {
	body := "a\n" + model.EffectMarker("p/7/1/s/1/comment") + "\n<!-- pipeline-action:effect  -->" + model.EffectMarker("q/7/2/t/1/comment")
	assert.Equal(t, []string{"p/7/1/s/1/comment", "q/7/2/t/1/comment"}, model.PostedEffects(body))
	assert.Empty(t, model.PostedEffects("<!-- pipeline-action:effect unterminated"))
}

// The config changed under a run whose merge GitHub refused, the gate that passed is
// gone from it, and the head moved: nothing unverified is merged.
// The guard follows the pipeline as written: a gate renamed under a run is checked
// under its new name, and the stored claim that the old one passed grants nothing.
func TestStepMergeWithItsGateGoneFollowsTheConfig(t *testing.T) {
	v1 := stepConfig()
	res := Step(v1, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "aaaaaaaaaa", res.Effects[0].SHA)
	res = Settle(v1, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge refused (405): not mergeable"}}, prFacts("ok"), t0)

	v2 := stepConfig()
	v2.BlobOID = "blob2"
	v2.Pipelines[0].Stages[0].ID = "checks" // the gate renamed; the old config is not at hand
	v2.Pipelines[0].Stages[0].OnPass = "merge"
	moved := prFacts()
	moved.PR.HeadSHA = "bbbbbbbbbb"
	next := Step(v2, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, moved, t0)
	assert.Empty(t, next.Effects, "an unverified head must not be merged")
	run := next.State.Runs[0]
	assert.Equal(t, "checks", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)

	moved.PR.Labels = []string{"ok"}
	next = Step(v2, next.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, moved, t0)
	require.Len(t, next.Effects, 1)
	assert.Equal(t, "bbbbbbbbbb", next.Effects[0].SHA)
}

func TestStepRefusedHoldHoldsLaterRuns(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{
		{Name: "hold", Priority: 10, Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
			{ID: "hold", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"hold"}}, OnSuccess: lang.TargetComplete},
		}},
		{Name: "merge", Priority: 20, Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
			{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "no-hold", Eval: absentLabel("hold")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		}},
	}}
	in := model.Input{Key: "k1", Event: "pull_request.labeled"}
	for _, permanent := range []bool{false, true} {
		res := Step(cfg, nil, in, prFacts(), t0)
		require.Len(t, res.Effects, 1)
		res = Settle(cfg, res.State, in, []model.Outcome{{Key: res.Effects[0].Key, Err: "refused", Permanent: permanent}}, prFacts(), t0)
		assert.Empty(t, res.Effects, "no merge while the hold could not be placed (permanent: %t)", permanent)
	}
}

func TestStepEqualPrioritiesGoInFileOrder(t *testing.T) {
	hold := &lang.Pipeline{Name: "hold", Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
		{ID: "hold", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"hold"}}, OnSuccess: lang.TargetComplete},
	}}
	merge := &lang.Pipeline{Name: "merge", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{
		{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "no-hold", Eval: absentLabel("hold")}, {Check: "ok", Eval: labelCheck("ok")}}},
		{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
	}}
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{hold, merge}}
	// The merge run started first (on opened); the hold, first in the file, still acts first.
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectAddLabel, res.Effects[0].Kind)
}

// A moved head sends the run back to the first gate whose verdict depends on the head;
// a gate on labels alone is not checked again for it.
func TestStepMovedHeadSkipsHeadIndependentGates(t *testing.T) {
	green := map[string]bool{"aaaaaaaaaa": true}
	cfg := &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:    "label-ci-merge",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{
			{ID: "label", Type: lang.StageGate, OnPass: "ci", Conditions: []lang.Condition{{Check: "label", Eval: headFree{labelCheck("ok")}}}},
			{ID: "ci", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ci", Eval: headCheck("ci", green)}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		},
	}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "merge refused (409): head branch was modified"}}, prFacts("ok"), t0)
	moved := prFacts("ok")
	moved.PR.HeadSHA = "bbbbbbbbbb"
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, moved, t0)
	assert.Empty(t, res.Effects)
	run := res.State.Runs[0]
	assert.Equal(t, "ci", run.Stage)
	assert.Equal(t, 1, run.Stages["label"].Attempt, "the label gate is not entered again")
	assert.Contains(t, run.History[len(run.History)-1].Why, "head moved from aaaaaaa to bbbbbbb")
}

// The merge went out but the state write after it failed; the closed event of that
// merge arrives next. The run ends completed, not cancelled.
func TestStepClosedByItsOwnMergeCompletes(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1) // the state holding this is never saved
	merged := prFacts("ok")
	merged.PR.State = model.PRMerged
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.closed"}, merged, t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status)
	assert.Equal(t, model.StageSucceeded, run.Stages["merge"].Status)
	assert.Empty(t, res.Effects)

	// The saved state is older still (the run at its gate), but the action merged it.
	waiting := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	merged.Viewer, merged.PR.MergedBy = "github-actions", "github-actions"
	res = Step(cfg, waiting.State, model.Input{Key: "k2", Event: "pull_request.closed"}, merged, t0)
	run = res.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status)
	assert.Equal(t, "merge", run.Stage)
	assert.Contains(t, run.History[len(run.History)-2].Why, "merged by github-actions")

	// Merged by someone else while the run waited at its gate: cancelled, as configured.
	merged.PR.MergedBy = "alice"
	res = Step(cfg, waiting.State, model.Input{Key: "k2", Event: "pull_request.closed"}, merged, t0)
	assert.Equal(t, model.RunCancelled, res.State.Runs[0].Status)
}

func TestSameIdentity(t *testing.T) {
	assert.True(t, model.SameIdentity("github-actions[bot]", "github-actions"))
	assert.True(t, model.SameIdentity("my-app[bot]", "my-app[bot]"))
	assert.False(t, model.SameIdentity("alice", "github-actions"))
	assert.False(t, model.SameIdentity("", ""))
}
