package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/lang"
)

// Rules in mapping form where a gate or a merge meets trouble: a gate's `on_fail` ({goto,
// max_iterations, then} and {when: {check_failed: X}, action: notify_and_wait, notify}), and
// merge_pr's `on_conflict` ({notify, label, then}) and `on_ci_failure` ({goto, max_iterations,
// then, notify, label}). A rule's notification and labels are asked for once per stage entry
// and head commit; its loop back is counted in Run.Iterations ("<stage>/<rule>"), for the
// run's whole life.

// ActionNotifyAndWait is the `action` of an on_fail handler that notifies and keeps the gate
// waiting.
const ActionNotifyAndWait = "notify_and_wait"

// ruleEffects asks for the notification and labels of rule, applied by stage of run for
// the reason name (a rule name), once per stage entry and head commit. A notification is
// performed at most once: its key is recorded as applied when it is asked for, and only the
// invocation whose save of that state won performs it.
func (e *eval) ruleEffects(p *lang.Pipeline, run *model.Run, stage *lang.Stage, rule *lang.Rule, name string) {
	sr := run.Stages[stage.ID]
	pr := e.Facts.PR
	base := fmt.Sprintf("%s/%s/%d/%s/%s", run.ID, stage.ID, sr.Attempt, name, model.Short(pr.HeadSHA))
	if len(rule.Labels) > 0 {
		eff := model.Effect{Key: base + "/label", Run: run.ID, Stage: stage.ID, Number: pr.Number}
		if plan := actionplan.Label(e.Eval, eff, rule.Labels, nil); plan.Eff.Kind != "" {
			e.Effects = append(e.Effects, plan.Eff)
		}
	}
	if rule.Notify == nil {
		return
	}
	key := base + "/notify"
	if slices.Contains(run.Applied, key) || slices.Contains(pr.Posted, key) {
		return
	}
	eff := model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Number: pr.Number}
	plan := actionplan.Notify(e.Eval, run, eff, rule.Notify.Target, rule.Notify.Message, e.templateEnv(p, run))
	switch {
	case plan.Err != "":
		e.Logf("run %s: %s: %s notification: %s", run.ID, stage.ID, name, plan.Err)
		sr.Message = fmt.Sprintf("%s: the notification could not be sent: %s", name, plan.Err)
	case plan.Eff.Kind != "":
		plan.Eff.WriteAhead = true
		marker := "/" + name + "/"
		model.AppendBounded(run, key, func(k string) bool { return strings.HasSuffix(k, "/notify") && strings.Contains(k, marker) })
		e.Effects = append(e.Effects, plan.Eff)
	}
}

// loop follows a loop rule from stage: back to rule.Goto while fewer than MaxIterations
// loops were made (any number without a maximum), else to rule.Then (fail when it names
// none). It reports whether the run moved.
func (e *eval) loop(run *model.Run, stage *lang.Stage, rule *lang.Rule, name, why string) bool {
	if rule.Goto == "" {
		if rule.Then == "" {
			return false
		}
		e.leave(run, stage, model.StageFailed, rule.Then, why)
		return true
	}
	counter := stage.ID + "/" + name
	n := run.Iterations[counter]
	if rule.MaxIterations > 0 && n >= rule.MaxIterations {
		then := rule.Then
		if then == "" {
			then = lang.TargetFail
		}
		e.leave(run, stage, model.StageFailed, then, fmt.Sprintf("%s; %s looped back %d %s already, its maximum", why, name, n, model.Plural(n, "time", "times")))
		return true
	}
	if run.Iterations == nil {
		run.Iterations = map[string]int{}
	}
	run.Iterations[counter] = n + 1
	if rule.MaxIterations > 0 {
		why = fmt.Sprintf("%s (loop %d of %d)", why, n+1, rule.MaxIterations)
		e.LoopedBounded(run)
	}
	e.MarkNext(run, model.KindLoop)
	e.leave(run, stage, model.StageFailed, rule.Goto, why)
	e.MarkNext(nil, "")
	return true
}
