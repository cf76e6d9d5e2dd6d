package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// answered applies dec, which follows an answer of the work s sent out (its Answer is
// set), and reports whether the run moved.
func (e *eval) answered(p *lang.Pipeline, run *model.Run, s *lang.Stage, dec stage.Decision) bool {
	moved := true
	switch {
	case dec.Error != "":
		moved = e.agentError(run, s, dec.Error)
	case e.LeaveBranch(run, s, parallel.VerdictStatus(dec.Verdict), dec.Why):
	case dec.Rule != nil:
		e.followRule(p, run, s, dec.Verdict, dec.Rule, dec.Why)
	case dec.Leave:
		e.leave(run, s, dec.Status, dec.Target, dec.Why)
	default:
		e.leave(run, s, model.StageFailed, lang.TargetFail, fmt.Sprintf("%s, and stage %q has no on_%s", dec.Why, s.ID, dec.Verdict))
	}
	if dec.Answered.After(e.Now) {
		// A clock behind GitHub's: what the move entered now (a new attempt too) counts as
		// entered when the answer was given, so that the same answer cannot answer it too.
		for _, sr := range run.Stages {
			if sr.EnteredAt.Equal(e.Now) {
				sr.EnteredAt = dec.Answered
			}
		}
	}
	return moved
}

// followRule follows a verdict's loop rule: its context is merged into the run's, and it
// goes to goto while iterations remain, then to then.
func (e *eval) followRule(p *lang.Pipeline, run *model.Run, stage *lang.Stage, verdict string, rule *lang.Rule, why string) {
	env := e.env(p, run)
	if len(rule.Context) > 0 {
		if run.Context == nil {
			run.Context = map[string]any{}
		}
		for _, kv := range rule.Context {
			v, err := lang.ValueOf(kv.Value, env)
			if err != nil {
				e.Logf("run %s: context %q of on_%s of stage %q: %v; left as it was", run.ID, kv.Key, verdict, stage.ID, err)
				continue
			}
			run.Context[kv.Key] = lang.JSONValue(v)
		}
	}
	e.ruleEffects(p, run, stage, rule, "on_"+verdict) // its notify and label, once per attempt
	status := model.StageSucceeded
	if verdict == lang.VerdictFailed || verdict == lang.VerdictReject || verdict == parallel.RuleOnAnyReject {
		status = model.StageFailed
	}
	target := rule.Goto
	if rule.MaxIterations > 0 {
		if run.Iterations == nil {
			run.Iterations = map[string]int{}
		}
		k := stage.ID + "/" + verdict
		if run.Iterations[k] >= rule.MaxIterations {
			target = rule.Then
			if target == "" {
				target = lang.TargetFail
			}
			why = fmt.Sprintf("%s; on_%s has looped %d of %d times", why, verdict, run.Iterations[k], rule.MaxIterations)
		} else {
			run.Iterations[k]++
			why = fmt.Sprintf("%s; on_%s: iteration %d of %d", why, verdict, run.Iterations[k], rule.MaxIterations)
			e.MarkNext(run, model.KindLoop)
			e.LoopedBounded(run)
		}
	}
	if target == "" {
		target = rule.Then
	}
	e.leave(run, stage, status, target, why)
	e.MarkNext(nil, "")
}
