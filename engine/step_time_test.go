package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func timeConfig(stages ...*lang.Stage) *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: stages}}}
}

func waitGate(id string, timeout time.Duration, rule *lang.Rule) *lang.Stage {
	return &lang.Stage{ID: id, Type: lang.StageGate, OnPass: lang.TargetComplete, Timeout: timeout, OnTimeout: rule,
		Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}}
}

// tick evaluates a later event (or sweep) at now.
func tick(t *testing.T, cfg *lang.Config, st *model.State, facts *model.Facts, now time.Time) model.Result {
	t.Helper()
	return Step(cfg, st, model.Input{Key: "tick-" + now.Format(time.RFC3339), Event: "sweep"}, facts, now)
}

func TestStageTimeoutDefaultsToFail(t *testing.T) {
	cfg := timeConfig(waitGate("g", 2*time.Hour, nil))
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	run := res.State.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, t0.Add(2*time.Hour), run.NextDeadline())
	assert.Equal(t, t0.Add(2*time.Hour), res.State.NextDeadline())

	early := tick(t, cfg, res.State, prFacts(), t0.Add(time.Hour))
	assert.Equal(t, model.RunWaiting, early.State.Runs[0].Status, "not due yet")

	late := tick(t, cfg, res.State, prFacts(), t0.Add(2*time.Hour))
	run = late.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, `stage "g" timed out at 2026-01-05 11:00 UTC`)
	assert.True(t, run.NextDeadline().IsZero())
}

func TestStageTimeoutEscalatesAndLabelsOnce(t *testing.T) {
	cfg := timeConfig(waitGate("g", time.Hour, &lang.Rule{Then: lang.TargetEscalate, Labels: []string{"needs-attention"}}))
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	late := tick(t, cfg, res.State, prFacts(), t0.Add(3*time.Hour))
	run := late.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.False(t, run.Status.Final())
	require.Len(t, late.Effects, 1)
	assert.Equal(t, model.EffectAddLabel, late.Effects[0].Kind)
	assert.Equal(t, []string{"needs-attention"}, late.Effects[0].Labels)
	settled := Settle(cfg, late.State, model.Input{}, []model.Outcome{{Key: late.Effects[0].Key}}, prFacts("needs-attention"), t0.Add(3*time.Hour))
	assert.NotContains(t, strings.Join(settled.Log, "\n"), "matches no acting stage")
	// Acted on once: later evaluations do nothing more, even when the gate would pass.
	again := tick(t, cfg, settled.State, prFacts("ok"), t0.Add(5*time.Hour))
	assert.Empty(t, again.Effects)
	assert.Equal(t, model.RunEscalated, again.State.Runs[0].Status)
	assert.True(t, again.State.NextDeadline().IsZero(), "an escalated run waits for a person, not for time")
}

func TestStageTimeoutCancelAndGoto(t *testing.T) {
	cfg := timeConfig(waitGate("g", time.Hour, &lang.Rule{Goto: lang.TargetCancel}))
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Equal(t, model.RunCancelled, tick(t, cfg, res.State, prFacts(), t0.Add(time.Hour)).State.Runs[0].Status)

	cfg = timeConfig(waitGate("g", time.Hour, &lang.Rule{Goto: "h"}), waitGate("h", 0, nil))
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	run := tick(t, cfg, res.State, prFacts(), t0.Add(time.Hour)).State.Runs[0]
	assert.Equal(t, "h", run.Stage)
	assert.Equal(t, model.StageFailed, run.Stages["g"].Status)
}

func TestStageTimeoutExtendsUpToMaxExtensions(t *testing.T) {
	cfg := timeConfig(waitGate("g", 48*time.Hour, &lang.Rule{Then: lang.ThenExtend, Extend: 24 * time.Hour, MaxExtensions: 2}))
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
	st = tick(t, cfg, st, prFacts(), t0.Add(49*time.Hour)).State
	run := st.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, t0.Add(72*time.Hour), run.NextDeadline(), "extended from the deadline, not from when it was seen")
	assert.Contains(t, run.Stages["g"].Message, "(1 of 2)")
	st = tick(t, cfg, st, prFacts(), t0.Add(72*time.Hour)).State
	assert.Equal(t, t0.Add(96*time.Hour), st.Runs[0].NextDeadline())
	st = tick(t, cfg, st, prFacts(), t0.Add(96*time.Hour)).State
	assert.Equal(t, model.RunFailed, st.Runs[0].Status)
	assert.Contains(t, st.Runs[0].Message, "extended 2 times, the most on_timeout allows")
}

func TestSweepLongAfterSeveralDeadlinesActsOnEachOnce(t *testing.T) {
	// Two extensions are due at once when nothing looked for four days: both are used up,
	// then the timeout fails the run.
	cfg := timeConfig(waitGate("g", time.Hour, &lang.Rule{Then: lang.ThenExtend, Extend: time.Hour, MaxExtensions: 2}))
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
	run := tick(t, cfg, st, prFacts(), t0.Add(96*time.Hour)).State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "after 2 extensions")
}

func delayStage(poll *lang.Poll) *lang.Stage {
	return &lang.Stage{ID: "wait", Type: lang.StageDelay, Duration: 30 * time.Minute, Poll: poll}
}

func TestDelayWaitsItsDuration(t *testing.T) {
	cfg := timeConfig(delayStage(nil), waitGate("g", 0, nil))
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0).State
	require.Equal(t, "wait", st.Runs[0].Stage)
	assert.Equal(t, model.RunWaiting, st.Runs[0].Status)
	assert.Equal(t, t0.Add(30*time.Minute), st.NextDeadline())
	assert.Equal(t, "wait", tick(t, cfg, st, prFacts("ok"), t0.Add(29*time.Minute)).State.Runs[0].Stage)
	run := tick(t, cfg, st, prFacts("ok"), t0.Add(30*time.Minute)).State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status, "on past the delay to the gate, which holds")
	assert.Equal(t, model.StagePassed, run.Stages["wait"].Status)
}

func TestDelayPollEndsItEarly(t *testing.T) {
	cond, cerr := lang.CompileExpr("{{ 'ready' in github.pr.labels }}", lang.Pos{})
	require.Nil(t, cerr)
	cfg := timeConfig(delayStage(&lang.Poll{Interval: 10 * time.Minute, Condition: cond, OnReady: lang.PollSkipRemaining}), waitGate("g", 0, nil))
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
	assert.Equal(t, t0.Add(10*time.Minute), st.NextDeadline())
	st = tick(t, cfg, st, prFacts(), t0.Add(11*time.Minute)).State
	assert.Equal(t, "wait", st.Runs[0].Stage)
	assert.Equal(t, t0.Add(20*time.Minute), st.NextDeadline(), "the next check, one interval on")
	st = tick(t, cfg, st, prFacts("ready"), t0.Add(20*time.Minute)).State
	assert.Equal(t, "g", st.Runs[0].Stage)
	assert.Contains(t, st.Runs[0].History[len(st.Runs[0].History)-1].Why, "the rest of the delay is skipped")

	// on_ready naming a stage goes there instead.
	cfg = timeConfig(delayStage(&lang.Poll{Interval: 10 * time.Minute, Condition: cond, OnReady: "h"}), waitGate("g", 0, nil), waitGate("h", 0, nil))
	st = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ready"), t0).State
	assert.Equal(t, "h", tick(t, cfg, st, prFacts("ready"), t0.Add(10*time.Minute)).State.Runs[0].Stage)
}

func TestDeadlinesOfARunWhosePipelineLeftAreDropped(t *testing.T) {
	cfg := timeConfig(waitGate("g", time.Hour, nil))
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
	require.False(t, st.NextDeadline().IsZero())
	gone := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "other", Trigger: lang.Trigger{Event: "push"}}}}
	res := tick(t, gone, st, prFacts(), t0.Add(2*time.Hour))
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status, "left as it is")
	assert.True(t, res.State.NextDeadline().IsZero(), "no longer due for the sweep")
}

// Handling the deadlines of an event twice is handling them once: the second evaluation at
// the same time finds nothing due, and changes nothing.
func TestDeadlinesTwiceEqualsOnce(t *testing.T) {
	cond, cerr := lang.CompileExpr("{{ 'ready' in github.pr.labels }}", lang.Pos{})
	require.Nil(t, cerr)
	configs := map[string]*lang.Config{
		"timeout fails":     timeConfig(waitGate("g", time.Hour, nil)),
		"timeout extends":   timeConfig(waitGate("g", time.Hour, &lang.Rule{Then: lang.ThenExtend, Extend: 30 * time.Minute, MaxExtensions: 3})),
		"timeout labels":    timeConfig(waitGate("g", time.Hour, &lang.Rule{Then: lang.TargetEscalate, Labels: []string{"late"}})),
		"delay with poll":   timeConfig(delayStage(&lang.Poll{Interval: 7 * time.Minute, Condition: cond, OnReady: lang.PollSkipRemaining}), waitGate("g", 2*time.Hour, nil)),
		"delay then a gate": timeConfig(delayStage(nil), waitGate("g", time.Hour, &lang.Rule{Goto: lang.TargetCancel})),
	}
	for name, cfg := range configs {
		st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
		for _, after := range []time.Duration{10 * time.Minute, 59 * time.Minute, time.Hour, 95 * time.Minute, 3 * time.Hour, 30 * time.Hour} {
			now := t0.Add(after)
			facts := prFacts()
			if after > time.Hour {
				facts = prFacts("ready")
			}
			once := tick(t, cfg, st, facts, now)
			twice := tick(t, cfg, once.State, facts, now)
			assert.False(t, twice.Changed, "%s at +%s: %v", name, after, twice.Log)
			assert.Empty(t, twice.Effects, "%s at +%s", name, after)
			st = once.State
		}
	}
}

func TestStageTimeoutNotifiesItsTargetOncePerTimeout(t *testing.T) {
	target, cerr := lang.CompileTemplate("maintainers", lang.Pos{})
	require.Nil(t, cerr)
	rule := &lang.Rule{Then: lang.ThenExtend, Extend: time.Hour, MaxExtensions: 1, Notify: &lang.Notify{Target: target}}
	cfg := timeConfig(waitGate("g", time.Hour, rule))
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice"}, Teams: []string{"acme/core"}}}
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State

	first := tick(t, cfg, st, prFacts(), t0.Add(time.Hour))
	require.Len(t, first.Effects, 1)
	eff := first.Effects[0]
	assert.Equal(t, model.EffectComment, eff.Kind)
	assert.True(t, eff.WriteAhead, "saved before it is posted: only the invocation whose save won posts it")
	assert.Equal(t, `@alice @acme/core stage "g" timed out at 2026-01-05 10:00 UTC.`, eff.Body)
	assert.Equal(t, "p/7/1/g/1/on_timeout/1/comment", eff.Key)
	settled := Settle(cfg, first.State, model.Input{}, []model.Outcome{{Key: eff.Key}}, prFacts(), t0.Add(time.Hour))
	assert.Empty(t, settled.Effects)
	assert.NotContains(t, strings.Join(settled.Log, "\n"), "matches no acting stage")

	// The extension's timeout notifies again, with its own key; then the run fails.
	second := tick(t, cfg, settled.State, prFacts(), t0.Add(2*time.Hour))
	require.Len(t, second.Effects, 1)
	assert.NotEqual(t, eff.Key, second.Effects[0].Key)
	assert.Contains(t, second.Effects[0].Body, "(after 1 extension)")
	assert.Equal(t, model.RunFailed, second.State.Runs[0].Status)
}
