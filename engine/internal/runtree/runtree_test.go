package runtree

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `version: 1
settings: {max_nesting: 1}
pipelines:
  top:
    trigger: {event: pull_request.opened}
    context: {who: top}
    stages:
      - id: review
        type: pipeline
        pipeline: leaf
        context: {focus: "{{ context.who }}-review"}
      - {id: fan, type: parallel, join: all, branches: [{id: deep, type: pipeline, pipeline: leaf}]}
  leaf: {stages: [{id: g, type: gate, conditions: [{check: ci_status}]}]}
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// kernel is a Kernel over a state of plain runs that records what was asked of it.
type kernel struct {
	cfg      *lang.Config
	runs     []*model.Run
	log      []string
	advanced []string
	followed []string
}

func (k *kernel) Tree() Tree         { return Tree{Runs: k.runs, Cfg: k.cfg} }
func (k *kernel) Add(run *model.Run) { k.runs = append(k.runs, run) }
func (k *kernel) Now() time.Time     { return now }
func (k *kernel) Logf(format string, args ...any) {
	k.log = append(k.log, fmt.Sprintf(format, args...))
}
func (k *kernel) NextRunNumber(string) int          { return len(k.runs) }
func (k *kernel) ConfigFor(*model.Run) *lang.Config { return k.cfg }
func (k *kernel) Env(_ *lang.Pipeline, run *model.Run) lang.Env {
	return lang.Env{"context": run.Context}
}
func (k *kernel) Advance(_ *lang.Pipeline, run *model.Run) { k.advanced = append(k.advanced, run.ID) }
func (k *kernel) Init(_ *lang.Pipeline, child *model.Run, passed map[string]any) {
	child.Context = passed
}
func (k *kernel) Finish(run *model.Run, status model.RunStatus, target, why string) {
	run.Status, run.Message = status, why
}
func (k *kernel) Enter(run *model.Run, from, to, why string) {
	run.Stage = to
	run.Stages[to] = &model.StageRun{Attempt: 1, Status: model.StageWaiting}
}
func (k *kernel) Follow(parent *model.Run, link *lang.Stage, branch bool, child *model.Run) {
	k.followed = append(k.followed, fmt.Sprintf("%s %s %v %s", parent.ID, link.ID, branch, child.Status))
	parent.Stages[link.ID].Status = model.StageSucceeded
}

func setup(t *testing.T) (*kernel, *lang.Pipeline, *model.Run) {
	t.Helper()
	cfg := stagetest.Config(t, src)
	run := &model.Run{ID: "top/7/1", Pipeline: "top", Subject: "o/r#7", Stage: "review", Status: model.RunRunning,
		Context: map[string]any{"who": "top"}, Stages: map[string]*model.StageRun{"review": {Attempt: 2, Status: model.StageWaiting}}}
	return &kernel{cfg: cfg, runs: []*model.Run{run}}, cfg.Pipeline("top"), run
}

func TestStartsOneChildPerAttempt(t *testing.T) {
	k, p, run := setup(t)
	s := p.Stage("review")
	child, why, fatal := Advance(k, p, run, s)
	require.NotNil(t, child, why)
	assert.False(t, fatal)
	assert.Equal(t, "leaf/7/1", child.ID)
	assert.Equal(t, "top/7/1/review", child.Parent)
	assert.Equal(t, 2, child.ParentAttempt)
	assert.Equal(t, 1, child.Depth)
	assert.Equal(t, map[string]any{"who": "top", "focus": "top-review"}, child.Context)
	assert.Equal(t, "g", child.Stage)
	assert.Equal(t, []string{"leaf/7/1"}, k.advanced, "the child moves in the evaluation that starts it")

	again, _, _ := Advance(k, p, run, s)
	assert.Same(t, child, again)
	assert.Len(t, k.runs, 2, "one child per attempt")
	assert.Equal(t, []*model.Run{child}, k.Tree().LiveChildren(run))

	run.Stages["review"].Attempt = 3
	assert.Nil(t, k.Tree().ChildOf(run, s), "a new attempt has no child yet")
}

func TestChildThatCannotStart(t *testing.T) {
	k, p, run := setup(t)
	run.Depth = 1
	child, why, fatal := Advance(k, p, run, p.Stage("review"))
	assert.Nil(t, child)
	assert.True(t, fatal, why)
	assert.Contains(t, why, "settings.max_nesting (1)")

	run.Depth = 0
	run.Stages["review"].Child = "leaf/7/9"
	child, why, fatal = Advance(k, p, run, p.Stage("review"))
	assert.Nil(t, child)
	assert.False(t, fatal)
	assert.Equal(t, "the sub-pipeline run leaf/7/9 is no longer in the state", why)
}

func TestReapCancelsOrphansAndFollowsEnds(t *testing.T) {
	k, p, run := setup(t)
	child, _, _ := Advance(k, p, run, p.Stage("review"))
	Reap(k)
	assert.Equal(t, model.RunRunning, child.Status, "its parent waits for it")

	child.Status = model.RunCompleted
	Reap(k)
	assert.Equal(t, []string{"top/7/1 review false completed"}, k.followed, "an ended child is followed at once")

	k1, p1, run1 := setup(t)
	child1, _, _ := Advance(k1, p1, run1, p1.Stage("review"))
	run1.Stages["review"].Attempt = 3 // a retry entered the stage anew
	Reap(k1)
	assert.Equal(t, model.RunCancelled, child1.Status, "the child of an earlier attempt")

	k2, p2, run2 := setup(t)
	child2, _, _ := Advance(k2, p2, run2, p2.Stage("review"))
	run2.Stage = "fan"
	Reap(k2)
	assert.Equal(t, model.RunCancelled, child2.Status)
	assert.Equal(t, "its parent run top/7/1 left attempt 2 of \"review\"", child2.Message)
}

func TestBranchChildren(t *testing.T) {
	k, p, run := setup(t)
	run.Stage = "fan"
	run.Stages["fan"] = &model.StageRun{Attempt: 1, Status: model.StageWaiting}
	run.Stages["deep"] = &model.StageRun{Attempt: 1, Status: model.StageWaiting, Parent: "fan", ParentAttempt: 1}
	b := p.Stage("fan").Branches[0]
	child, _, _ := Advance(k, p, run, b)
	require.NotNil(t, child)
	tr := k.Tree()
	assert.True(t, tr.StandsAt(run, "deep"), "an open branch")
	assert.True(t, tr.Descends(child, run))
	assert.False(t, tr.Descends(run, child))
	assert.True(t, tr.AnyBelow(map[string]bool{child.ID: true}, run))
	assert.False(t, tr.AnyBelow(map[string]bool{"other/7/1": true}, run))

	child.Intents = []model.Intent{{Key: "merge"}}
	it, ok := tr.OpenIntentDeep(run)
	assert.True(t, ok)
	assert.Equal(t, "merge", it.Key)

	child.Status = model.RunFailed
	Reap(k)
	assert.Equal(t, []string{"top/7/1 deep true failed"}, k.followed)

	run.Stages["deep"].Status = model.StageCancelled
	assert.False(t, k.Tree().StandsAt(run, "deep"), "a closed branch")
}

func TestStandingAt(t *testing.T) {
	k, p, run := setup(t)
	past := []model.PastRun{{ID: "top/7/0", Status: model.RunCompleted}}
	tr := k.Tree()
	got, gp, s, why := tr.StandingAt(past, "o/r#7", "top/7/1", "review", 2)
	require.Empty(t, why)
	assert.Same(t, run, got)
	assert.Same(t, p, gp)
	assert.Equal(t, "review", s.ID)
	for _, tc := range []struct {
		run, stage string
		attempt    int
		why        string
	}{
		{"top/7/0", "review", 1, "the run is completed"},
		{"top/7/9", "review", 1, "no such run on o/r#7"},
		{"top/7/1", "review", 1, "the stage is at attempt 2, not 1"},
	} {
		_, _, _, why := tr.StandingAt(past, "o/r#7", tc.run, tc.stage, tc.attempt)
		assert.Equal(t, tc.why, why)
	}
	_, _, _, why = tr.StandingAt(past, "o/r#7", "top/7/1", "fan", 1)
	assert.NotEmpty(t, why, "a stage the run does not stand at")
}
