package rules

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kernel is a Kernel over plain values that records what the rules asked for.
type kernel struct {
	facts   *model.Facts
	p       *lang.Pipeline
	log     []string
	emitted []model.Effect
	left    []string
	marks   []string
	bounded int
	// refuse is why PlanNotify and PlanItem refuse, when set.
	refuse string
}

func (k *kernel) Facts() *model.Facts                   { return k.facts }
func (k *kernel) PipelineFor(*model.Run) *lang.Pipeline { return k.p }
func (k *kernel) Logf(format string, args ...any) {
	k.log = append(k.log, fmt.Sprintf(format, args...))
}
func (k *kernel) Emit(eff model.Effect) { k.emitted = append(k.emitted, eff) }
func (k *kernel) Env(*lang.Pipeline, *model.Run) lang.Env {
	return lang.Env{"context": map[string]any{"n": 2}}
}
func (k *kernel) TemplateEnv(p *lang.Pipeline, run *model.Run) lang.Env {
	return k.Env(p, run)
}
func (k *kernel) plan(eff model.Effect, kind model.EffectKind) core.PlannedAction {
	if k.refuse != "" {
		return core.PlannedAction{Err: k.refuse}
	}
	eff.Kind = kind
	return core.PlannedAction{Eff: eff}
}
func (k *kernel) PlanItem(_ *model.Run, item lang.ActionItem, eff model.Effect, _ lang.Env) core.PlannedAction {
	return k.plan(eff, model.EffectKind(item.Action))
}
func (k *kernel) PlanLabel(eff model.Effect, _, _ []string) core.PlannedAction {
	eff.Kind = model.EffectLabel
	return core.PlannedAction{Eff: eff}
}
func (k *kernel) PlanNotify(_ *model.Run, eff model.Effect, _, _ *lang.Template, _ lang.Env) core.PlannedAction {
	return k.plan(eff, model.EffectComment)
}
func (k *kernel) Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string) {
	k.left = append(k.left, fmt.Sprintf("%s %s -> %s: %s", s.ID, status, target, why))
}
func (k *kernel) MarkNext(run *model.Run, kind string) { k.marks = append(k.marks, kind) }
func (k *kernel) LoopedBounded(*model.Run)             { k.bounded++ }

func setup() (*kernel, *model.Run, *lang.Stage) {
	s := &lang.Stage{ID: "review", Type: lang.StageGate}
	p := &lang.Pipeline{Name: "p", Stages: []*lang.Stage{s},
		OnComplete: []lang.ActionItem{{Action: lang.ActionComment}, {Action: lang.ActionLabel}},
		OnError:    []lang.ActionItem{{Action: lang.ActionComment}}}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Stage: "review", Stages: map[string]*model.StageRun{"review": {Attempt: 2}}}
	f := &model.Facts{Repo: "o/r", PR: &model.PullRequest{Number: 7, HeadSHA: "abcdef1234567"}}
	return &kernel{facts: f, p: p}, run, s
}

func TestLoopGoesBackUntilItsMaximum(t *testing.T) {
	k, run, s := setup()
	rule := &lang.Rule{Goto: "fix", MaxIterations: 2}
	for i := 1; i <= 2; i++ {
		require.True(t, Loop(k, run, s, rule, "on_fail", "gate failed"))
		assert.Equal(t, i, run.Iterations["review/on_fail"])
	}
	assert.Equal(t, 2, k.bounded)
	assert.Equal(t, []string{model.KindLoop, "", model.KindLoop, ""}, k.marks)
	require.True(t, Loop(k, run, s, rule, "on_fail", "gate failed"))
	assert.Equal(t, []string{
		"review failed -> fix: gate failed (loop 1 of 2)",
		"review failed -> fix: gate failed (loop 2 of 2)",
		"review failed -> fail: gate failed; on_fail looped back 2 times already, its maximum",
	}, k.left)
	assert.False(t, Loop(k, run, s, &lang.Rule{}, "on_fail", "x"), "a rule that neither loops nor goes on keeps the run")
}

func TestEffectsOncePerAttemptAndHead(t *testing.T) {
	k, run, s := setup()
	rule := &lang.Rule{Labels: []string{"needs-work"}, Notify: &lang.Notify{}}
	Effects(k, p(k), run, s, rule, "on_conflict")
	require.Len(t, k.emitted, 2)
	assert.Equal(t, "p/7/1/review/2/on_conflict/abcdef1/label", k.emitted[0].Key)
	assert.Equal(t, "p/7/1/review/2/on_conflict/abcdef1/notify", k.emitted[1].Key)
	assert.True(t, k.emitted[1].WriteAhead, "a notification is performed at most once")
	Effects(k, p(k), run, s, rule, "on_conflict")
	assert.Len(t, k.emitted, 3, "the label again (idempotent), the notification not")

	k.refuse = "no such team"
	run.Stages["review"].Attempt = 3
	Effects(k, p(k), run, s, rule, "on_conflict")
	assert.Equal(t, "on_conflict: the notification could not be sent: no such team", run.Stages["review"].Message)
}

func p(k *kernel) *lang.Pipeline { return k.p }

func TestListAsksForEachItem(t *testing.T) {
	k, run, _ := setup()
	List(k, run, model.ListOnComplete)
	require.Len(t, k.emitted, 2)
	assert.Equal(t, "p/7/1/on_complete/1/comment", k.emitted[0].Key)
	assert.True(t, k.emitted[0].WriteAhead, "a comment of a list is posted once")
	assert.Equal(t, "p/7/1/on_complete/2/label", k.emitted[1].Key)

	k.refuse = "bad template"
	List(k, run, model.ListOnError)
	assert.Len(t, k.emitted, 2)
	assert.Equal(t, "on_error item 1 (comment): bad template", run.Message)
}

func TestListOutcomeIsOnlyAList(t *testing.T) {
	var log []string
	logf := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
	assert.True(t, ListOutcome(logf, model.Outcome{Key: "p/7/1/on_complete/1/comment", Err: "403"}))
	assert.False(t, ListOutcome(logf, model.Outcome{Key: "p/7/1/review/1/merge"}))
	assert.Equal(t, []string{"p/7/1/on_complete/1/comment: 403; a pipeline's list is not tried again"}, log)
}

func TestVerdictRuleLoopsThenGoesOn(t *testing.T) {
	k, run, s := setup()
	rule := &lang.Rule{Goto: "fix", MaxIterations: 1, Then: "escalate",
		Context: []lang.KeyValue{{Key: "round", Value: lang.Value{Kind: lang.KindString, Scalar: "second"}}}}
	Verdict(k, k.p, run, s, lang.VerdictReject, rule, "rejected")
	Verdict(k, k.p, run, s, lang.VerdictReject, rule, "rejected")
	assert.Equal(t, []string{
		"review failed -> fix: rejected; on_reject: iteration 1 of 1",
		"review failed -> escalate: rejected; on_reject has looped 1 of 1 times",
	}, k.left)
	assert.Equal(t, "second", run.Context["round"], "the rule's context goes into the run's")
	Verdict(k, k.p, run, s, lang.VerdictApprove, &lang.Rule{Goto: "merge"}, "approved")
	assert.Equal(t, "review succeeded -> merge: approved", k.left[2])
}
