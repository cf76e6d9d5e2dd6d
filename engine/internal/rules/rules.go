package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// Rules in mapping form where a gate or a merge meets trouble: a gate's `on_fail` ({goto,
// max_iterations, then} and {when: {check_failed: X}, action: notify_and_wait, notify}), and
// merge_pr's `on_conflict` ({notify, label, then}) and `on_ci_failure` ({goto, max_iterations,
// then, notify, label}). A rule's notification and labels are asked for once per stage entry
// and head commit; its loop back is counted in Run.Iterations ("<stage>/<rule>"), for the
// run's whole life.

// Effects asks for the notification and labels of rule, applied by stage of run for
// the reason name (a rule name), once per stage entry and head commit. A notification is
// performed at most once: its key is recorded as applied when it is asked for, and only the
// invocation whose save of that state won performs it.
func Effects(k Kernel, p *lang.Pipeline, run *model.Run, stage *lang.Stage, rule *lang.Rule, name string) {
	sr := run.Stages[stage.ID]
	pr := k.Facts().PR
	base := fmt.Sprintf("%s/%s/%d/%s/%s", run.ID, stage.ID, sr.Attempt, name, model.Short(pr.HeadSHA))
	if len(rule.Labels) > 0 {
		eff := model.Effect{Key: base + "/label", Run: run.ID, Stage: stage.ID, Number: pr.Number}
		if plan := k.PlanLabel(eff, rule.Labels, nil); plan.Eff.Kind != "" {
			k.Emit(plan.Eff)
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
	plan := k.PlanNotify(run, eff, rule.Notify.Target, rule.Notify.Message, k.TemplateEnv(p, run))
	switch {
	case plan.Err != "":
		k.Logf("run %s: %s: %s notification: %s", run.ID, stage.ID, name, plan.Err)
		sr.Message = fmt.Sprintf("%s: the notification could not be sent: %s", name, plan.Err)
	case plan.Eff.Kind != "":
		plan.Eff.WriteAhead = true
		marker := "/" + name + "/"
		model.AppendBounded(run, key, func(k string) bool { return strings.HasSuffix(k, "/notify") && strings.Contains(k, marker) })
		k.Emit(plan.Eff)
	}
}

// Loop follows a loop rule from stage: back to rule.Goto while fewer than MaxIterations
// loops were made (any number without a maximum), else to rule.Then (fail when it names
// none). It reports whether the run moved.
func Loop(k Kernel, run *model.Run, stage *lang.Stage, rule *lang.Rule, name, why string) bool {
	if rule.Goto == "" {
		if rule.Then == "" {
			return false
		}
		k.Leave(run, stage, model.StageFailed, rule.Then, why)
		return true
	}
	counter := stage.ID + "/" + name
	n := run.Iterations[counter]
	if rule.MaxIterations > 0 && n >= rule.MaxIterations {
		then := rule.Then
		if then == "" {
			then = lang.TargetFail
		}
		k.Leave(run, stage, model.StageFailed, then, fmt.Sprintf("%s; %s looped back %d %s already, its maximum", why, name, n, model.Plural(n, "time", "times")))
		return true
	}
	if run.Iterations == nil {
		run.Iterations = map[string]int{}
	}
	run.Iterations[counter] = n + 1
	if rule.MaxIterations > 0 {
		why = fmt.Sprintf("%s (loop %d of %d)", why, n+1, rule.MaxIterations)
		k.LoopedBounded(run)
	}
	k.MarkNext(run, model.KindLoop)
	k.Leave(run, stage, model.StageFailed, rule.Goto, why)
	k.MarkNext(nil, "")
	return true
}

// Verdict follows a verdict's loop rule: its context is merged into the run's, and it
// goes to goto while iterations remain, then to then.
func Verdict(k Kernel, p *lang.Pipeline, run *model.Run, stage *lang.Stage, verdict string, rule *lang.Rule, why string) {
	env := k.Env(p, run)
	if len(rule.Context) > 0 {
		if run.Context == nil {
			run.Context = map[string]any{}
		}
		for _, kv := range rule.Context {
			v, err := lang.ValueOf(kv.Value, env)
			if err != nil {
				k.Logf("run %s: context %q of on_%s of stage %q: %v; left as it was", run.ID, kv.Key, verdict, stage.ID, err)
				continue
			}
			run.Context[kv.Key] = lang.JSONValue(v)
		}
	}
	Effects(k, p, run, stage, rule, "on_"+verdict) // its notify and label, once per attempt
	status := model.StageSucceeded
	if verdict == lang.VerdictFailed || verdict == lang.VerdictReject || verdict == parallel.RuleOnAnyReject {
		status = model.StageFailed
	}
	target := rule.Goto
	if rule.MaxIterations > 0 {
		if run.Iterations == nil {
			run.Iterations = map[string]int{}
		}
		key := stage.ID + "/" + verdict
		if run.Iterations[key] >= rule.MaxIterations {
			target = rule.Then
			if target == "" {
				target = lang.TargetFail
			}
			why = fmt.Sprintf("%s; on_%s has looped %d of %d times", why, verdict, run.Iterations[key], rule.MaxIterations)
		} else {
			run.Iterations[key]++
			why = fmt.Sprintf("%s; on_%s: iteration %d of %d", why, verdict, run.Iterations[key], rule.MaxIterations)
			k.MarkNext(run, model.KindLoop)
			k.LoopedBounded(run)
		}
	}
	if target == "" {
		target = rule.Then
	}
	k.Leave(run, stage, status, target, why)
	k.MarkNext(nil, "")
}
