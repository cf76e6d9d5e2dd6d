package settle

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/agent"
)

var t0 = time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)

// fake is a Kernel over plain values that records what settling asked of it.
type fake struct {
	now     time.Time
	facts   *model.Facts
	cfg     *lang.Config
	runs    []*model.Run
	intents Intents
	reads   bool // the stage types read outcomes (Settled)
	own     stage.Effects
	calls   []string
	logs    []string
}

func (f *fake) Now() time.Time { return f.now }
func (f *fake) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fake) Facts() *model.Facts        { return f.facts }
func (f *fake) Config() *lang.Config       { return f.cfg }
func (f *fake) Runs() []*model.Run         { return f.runs }
func (f *fake) Intents() *Intents          { return &f.intents }
func (f *fake) NoteRefused(run *model.Run) { f.calls = append(f.calls, "refused "+run.ID) }
func (f *fake) Escalate(run *model.Run, why string) {
	f.calls = append(f.calls, "escalate: "+why)
}
func (f *fake) FindEffect(key string) (*model.Run, *lang.Stage) {
	for _, run := range f.runs {
		if strings.HasPrefix(key, run.ID+"/") {
			return run, f.Stage(run, run.Stage)
		}
	}
	return nil, nil
}
func (f *fake) Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string) {
	f.calls = append(f.calls, fmt.Sprintf("leave %s %s %s: %s", s.ID, status, target, why))
}
func (f *fake) Stage(run *model.Run, id string) *lang.Stage {
	if p := f.cfg.PipelineFor(run); p != nil {
		return p.Stage(id)
	}
	return nil
}
func (f *fake) Settled(_ *model.Run, s *lang.Stage, o model.Outcome) bool {
	if f.reads {
		f.calls = append(f.calls, "settled "+s.ID+" "+o.Key)
	}
	return f.reads
}
func (f *fake) AgentSettled(_ *model.Run, s *lang.Stage, o model.Outcome) {
	f.calls = append(f.calls, "agent settled "+o.Key)
}
func (f *fake) Trace(*model.Run, *lang.Stage, model.Intent) (agent.Trace, int64, string) {
	return agent.TraceAbsent, 0, "no run"
}
func (f *fake) Own(*lang.Stage) stage.Effects { return f.own }
func (f *fake) OwnDecided(_ *model.Run, _ *lang.Stage, decide func(stage.Context) stage.Decision) {
	f.calls = append(f.calls, "own: "+decide(nil).Why)
}
func (f *fake) ActionFailed(_ *model.Run, s *lang.Stage, why string) {
	f.calls = append(f.calls, "failed "+s.ID+": "+why)
}
func (f *fake) ActionDoneWhy(*lang.Stage) string { return "merged" }
func (f *fake) NotifyAgentUnknown(*model.Run, *lang.Stage, model.Intent) bool {
	return false
}
func (f *fake) OnRunPR(*model.Run, model.Intent) func() { return nil }

// ownType reads its own effects: those whose key ends in "/own".
type ownType struct{}

func (ownType) Owns(_ *model.Run, _ *lang.Stage, key string) bool {
	return strings.HasSuffix(key, "/own")
}
func (ownType) Settle(_ stage.Context, _ *model.Run, _ *lang.Stage, o model.Outcome) stage.Decision {
	return stage.Decision{Why: "settled " + o.Key}
}
func (ownType) Lost(_ stage.Context, _ *model.Run, _ *lang.Stage, it model.Intent) stage.Decision {
	return stage.Decision{Why: "lost " + it.Key}
}

const mergeKey = "p/7/1/merge/1/merge"

func newFake() (*fake, *model.Run) {
	p := &lang.Pipeline{Name: "p", Stages: []*lang.Stage{
		{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: "done"},
	}}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Stage: "merge", Status: model.RunRunning,
		Stages: map[string]*model.StageRun{"merge": {Status: model.StageActing, Attempt: 1}}}
	f := &fake{now: t0, cfg: &lang.Config{Pipelines: []*lang.Pipeline{p}}, runs: []*model.Run{run},
		facts:   &model.Facts{PR: &model.PullRequest{Number: 7, HeadSHA: "aaaa", State: model.PROpen}},
		intents: Intents{Unknown: map[string]model.Intent{}}}
	return f, run
}

func TestIntendWritesTheIntentFirstAndCountsTries(t *testing.T) {
	f, run := newFake()
	eff := model.Effect{Key: mergeKey, Kind: model.EffectMerge, Stage: "merge"}
	Intend(f, run, run.Stages["merge"], &eff)
	assert.True(t, eff.WriteAhead)
	require.Len(t, run.Intents, 1)
	assert.Equal(t, model.Intent{Key: mergeKey, Kind: model.EffectMerge, Stage: "merge", Attempt: 1, SHA: "aaaa", Try: 1, At: t0,
		Until: t0.Add(model.DefaultIntentLease + model.IntentGrace)}, run.Intents[0])

	f.intents.Deadline = t0.Add(time.Hour) // the invocation's own deadline bounds it
	f.intents.Unknown[mergeKey] = model.Intent{Key: mergeKey, Try: 2, At: t0.Add(-time.Hour)}
	Intend(f, run, run.Stages["merge"], &eff)
	require.Len(t, run.Intents, 1, "the intent of a key is replaced")
	assert.Equal(t, 3, run.Intents[0].Try)
	assert.Equal(t, t0.Add(time.Hour+model.IntentGrace), run.Intents[0].Until)
	assert.Len(t, f.logs, 1)

	dispatch := model.Effect{Key: "p/7/1/merge/1/dispatch", Kind: model.EffectDispatch, Dispatch: lang.DispatchLabel, Labels: []string{"go"}}
	Intend(f, run, run.Stages["merge"], &dispatch)
	assert.Equal(t, "go", run.Intents[1].Target)
}

func TestReconcileOfAMergeIntent(t *testing.T) {
	intent := model.Intent{Key: mergeKey, Kind: model.EffectMerge, Stage: "merge", Attempt: 1, At: t0, Until: t0.Add(10 * time.Minute)}

	t.Run("merged: done", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{intent}
		f.facts.PR.State = model.PRMerged
		Reconcile(f)
		assert.Empty(t, run.Intents)
		assert.Equal(t, []string{mergeKey}, run.Applied)
		assert.Equal(t, []string{"leave merge succeeded done: merged"}, f.calls)
	})
	t.Run("in flight: the run waits", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{intent}
		run.Status, run.Stages["merge"].Status = model.RunWaiting, model.StageWaiting
		f.now = t0.Add(5 * time.Minute)
		Reconcile(f)
		assert.Len(t, run.Intents, 1)
		assert.Equal(t, model.RunRunning, run.Status)
		assert.Equal(t, model.StageActing, run.Stages["merge"].Status)
		assert.Empty(t, f.calls)
	})
	t.Run("its invocation ended: asked for again under a new try", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{intent}
		f.now = t0.Add(time.Hour)
		Reconcile(f)
		assert.Empty(t, run.Intents)
		assert.Equal(t, intent, f.intents.Unknown[mergeKey])
		assert.Empty(t, run.Applied)
	})
	t.Run("its outcome is known: the stage's type reads it", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{intent}
		f.reads = true
		f.intents.Outcomes = []model.Outcome{{Key: mergeKey, Err: "conflict"}}
		Reconcile(f)
		assert.Empty(t, run.Intents)
		assert.Equal(t, []string{"refused p/7/1", "settled merge " + mergeKey}, f.calls)
	})
	t.Run("what the facts show wins over a refusal", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{intent}
		f.reads = true
		f.facts.PR.State = model.PRMerged
		f.intents.Outcomes = []model.Outcome{{Key: mergeKey, Err: "timeout"}}
		Reconcile(f)
		assert.Equal(t, []string{"leave merge succeeded done: merged"}, f.calls)
	})
	t.Run("the run ended: dropped", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{intent}
		run.Status = model.RunCancelled
		f.facts.PR.State = model.PRMerged
		Reconcile(f)
		assert.Empty(t, run.Intents)
		assert.Empty(t, f.calls)
	})
	t.Run("an issue whose opening is unknown is not opened again", func(t *testing.T) {
		f, run := newFake()
		run.Intents = []model.Intent{{Key: "p/7/1/merge/1/issue", Kind: model.EffectCreateIssue, Stage: "merge", Attempt: 1, At: t0, Until: t0}}
		f.now = t0.Add(time.Hour)
		Reconcile(f)
		assert.Empty(t, run.Intents)
		assert.Empty(t, f.intents.Unknown)
		require.Len(t, f.calls, 1)
		assert.Contains(t, f.calls[0], "failed merge: the outcome of opening the issue")
	})
}

func TestUnansweredKeepsTheIntentInFlight(t *testing.T) {
	f, run := newFake()
	key := "p/7/1/merge/1/comment"
	run.Intents = []model.Intent{{Key: key, Kind: model.EffectComment, Stage: "merge", Attempt: 1, At: t0, Until: t0.Add(time.Minute)}}
	assert.True(t, Unanswered(f, model.Outcome{Key: key, Unknown: true, Err: "timeout"}))
	assert.Len(t, run.Intents, 1, "never sent again blindly")
	assert.Contains(t, run.Stages["merge"].Message, "it may have been performed")

	assert.False(t, Unanswered(f, model.Outcome{Key: key, Err: "refused"}), "a known outcome is settled as usual")
	run.Intents = []model.Intent{{Key: mergeKey, Kind: model.EffectMerge, Stage: "merge", Attempt: 1}}
	assert.False(t, Unanswered(f, model.Outcome{Key: mergeKey, Unknown: true}), "a merge is a refusal: GitHub merges once")
}

func TestUpdateBehind(t *testing.T) {
	f, run := newFake()
	key := "p/7/1/merge/1/" + model.RuleWhenBehind + "/update"
	assert.False(t, UpdateBehind(f, model.Outcome{Key: mergeKey}))
	assert.True(t, UpdateBehind(f, model.Outcome{Key: key}))
	assert.Equal(t, []string{key}, run.Applied)
	assert.True(t, UpdateBehind(f, model.Outcome{Key: key, Err: "busy"}))
	assert.Empty(t, f.calls, "tried again on the next event")
	assert.True(t, UpdateBehind(f, model.Outcome{Key: key, Err: "protected", Permanent: true}))
	assert.True(t, UpdateBehind(f, model.Outcome{Key: key, Err: "protected", Escalate: true}))
	assert.Equal(t, []string{"escalate: the head is behind its base branch and could not be brought up to date: protected",
		"escalate: the head is behind its base branch and could not be brought up to date: protected"}, f.calls)
}

func TestOwnEffects(t *testing.T) {
	f, run := newFake()
	f.own = ownType{}
	key := "p/7/1/merge/1/own"
	assert.False(t, Own(f, model.Outcome{Key: mergeKey}))
	run.Intents = []model.Intent{{Key: key, Stage: "merge", Attempt: 1, At: t0, Until: t0.Add(time.Minute)}}
	assert.True(t, Own(f, model.Outcome{Key: key}))
	assert.Empty(t, run.Intents)
	assert.Equal(t, []string{"own: settled " + key}, f.calls)

	run.Intents = []model.Intent{{Key: key, Stage: "merge", Attempt: 1, At: t0, Until: t0.Add(time.Minute)}}
	f.now, f.calls = t0.Add(time.Hour), nil
	Reconcile(f)
	assert.Empty(t, run.Intents)
	assert.Equal(t, []string{"own: lost " + key}, f.calls)
}

func TestSettleOfAStageThatReadsNoOutcome(t *testing.T) {
	f, run := newFake()
	run.Intents = []model.Intent{{Key: mergeKey, Stage: "merge", Attempt: 1}}
	Settle(f, run, f.Stage(run, "merge"), model.Outcome{Key: mergeKey})
	assert.Empty(t, run.Intents)
	assert.Equal(t, []string{mergeKey}, run.Applied)
	assert.Contains(t, f.logs[0], "reads no outcome")
}

func TestReconcileOfADispatch(t *testing.T) {
	f, run := newFake()
	f.cfg.Pipelines[0].Stages[0] = &lang.Stage{ID: "merge", Type: lang.StageAgent, Agent: "coder"}
	key := "p/7/1/merge/1/dispatch"
	it := model.Intent{Key: key, Kind: model.EffectDispatch, Stage: "merge", Attempt: 1, At: t0, Until: t0.Add(time.Minute)}
	run.Intents = []model.Intent{it}
	f.intents.Outcomes = []model.Outcome{{Key: key}}
	Reconcile(f)
	assert.Equal(t, []string{"agent settled " + key}, f.calls)

	f.intents.Outcomes, f.calls = nil, nil
	Reconcile(f)
	assert.Len(t, run.Intents, 1, "absent, but maybe still in flight")
	assert.Empty(t, f.intents.Unknown)

	f.now = t0.Add(time.Hour)
	Reconcile(f)
	assert.Empty(t, run.Intents)
	assert.Equal(t, it, f.intents.Unknown[key], "absent and its invocation ended: asked for again")
	assert.Empty(t, f.calls)
}

func TestHumanStageEffects(t *testing.T) {
	f, run := newFake()
	f.cfg.Pipelines[0].Stages = append(f.cfg.Pipelines[0].Stages, &lang.Stage{ID: "lead", Type: lang.StageHuman})
	run.Stage, run.Stages["lead"] = "lead", &model.StageRun{Status: model.StageWaiting, Attempt: 2}
	key := "p/7/1/lead/2/reminder-3"
	assert.False(t, StageEffect(f, model.Outcome{Key: "p/7/1/lead/1/reminder-3"}), "an earlier attempt's is no effect of the stage now")

	run.Intents = []model.Intent{{Key: key, Kind: model.EffectComment, Stage: "lead", Attempt: 2, At: t0, Until: t0.Add(time.Minute)}}
	assert.True(t, StageEffect(f, model.Outcome{Key: key, Err: "busy"}))
	assert.Empty(t, run.Intents)
	assert.Equal(t, []string{"refused p/7/1"}, f.calls, "tried again on the next event")

	run.Intents = []model.Intent{{Key: key, Kind: model.EffectComment, Stage: "lead", Attempt: 2, At: t0, Until: t0.Add(time.Minute)}}
	f.facts.PR.Posted = []string{key}
	Reconcile(f)
	assert.Empty(t, run.Intents)
	assert.Equal(t, 3, run.Stages["lead"].Reminders, "the comment is there: done")
	assert.Equal(t, []string{key}, run.Applied)
}
