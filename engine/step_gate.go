package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// The gate stage: its conditions against the facts.

// evaluate runs the conditions of gate stage against the facts. blocked: a required
// condition does not pass; failed: one has decidedly failed.
func (e *eval) evaluate(stage *lang.Stage) (results []model.GateResult, blocked, failed bool) {
	results = make([]model.GateResult, 0, len(stage.Conditions))
	facts := e.FactsForGates()
	for _, c := range stage.Conditions {
		r := e.check(c, facts)
		r.Check, r.Optional = c.Check, c.Optional
		results = append(results, r)
		if c.Optional || r.Status == model.GatePass {
			continue
		}
		blocked = true
		if r.Status == model.GateFail {
			failed = true
		}
	}
	for _, group := range stage.AnyOf {
		r := e.anyOf(group, facts)
		results = append(results, r)
		if r.Status != model.GatePass {
			blocked = true
			failed = failed || r.Status == model.GateFail
		}
	}
	return results, blocked, failed
}

func (e *eval) gate(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	restore := e.withRun(p, run)
	results, blocked, failed := e.evaluate(stage)
	restore()
	sr.Results = results
	switch {
	case !blocked:
		// A gate's checklist is evaluated afresh from the facts on every event it is read
		// (here, and by the merge guard): a passed gate keeps its decision, not the list.
		sr.Results = nil
		run.VerifiedSHA, run.VerifiedBy = e.Facts.PR.HeadSHA, stage.ID
		e.leave(run, stage, model.StagePassed, stage.OnPass, "gate passed on "+model.Short(e.Facts.PR.HeadSHA))
		return true
	case failed && stage.OnFailRule != nil:
		if e.gateOnFail(p, run, stage, results) {
			return true
		}
	case failed && stage.OnFail != "":
		e.leave(run, stage, model.StageFailed, stage.OnFail, "gate failed: "+model.Failures(results))
		return true
	}
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	return false
}

// gateType waits until its condition holds on the facts.
type gateType struct {
	noDeadlines
	noBranch
	noAnswers
	nobody
}

func (gateType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.gate(p, run, stage)
}

func (gateType) recheck(g *guardCheck, s *lang.Stage) stage.Verdict {
	switch {
	case g.skips(s):
		return stage.Skips
	case g.holds(s):
		return stage.Holds
	case g.failing[s.ID]:
		return stage.Fails
	}
	return stage.Stops
}

// stillHolds: a gate the run passed or skipped holds today, unless its condition does not
// hold today (the config skips it).
func (gateType) stillHolds(g *guardCheck, s *lang.Stage, sr *model.StageRun) bool {
	return sr.Status != model.StagePassed && sr.Status != model.StageSkipped || g.skips(s) || g.holds(s)
}
