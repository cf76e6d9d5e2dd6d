// Package gate is the gate stage: it waits until its conditions hold on the facts, and the
// merge guard checks them again on today's facts before a merge.
package gate

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Type is the gate stage.
type Type struct {
	stage.NoDeadlines
	stage.Nobody
}

// Step passes the gate when its conditions hold, fails it (or follows its on_fail) when
// one decidedly fails, and keeps the run waiting otherwise.
func (Type) Step(c stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	sr := run.Stages[s.ID]
	results, blocked, failed := c.Conditions(s)
	sr.Results = results
	switch {
	case !blocked:
		// A gate's checklist is evaluated afresh from the facts on every event it is read
		// (here, and by the merge guard): a passed gate keeps its decision, not the list.
		sr.Results = nil
		head := c.Facts().PR.HeadSHA
		run.VerifiedSHA, run.VerifiedBy = head, s.ID
		return stage.Leave(model.StagePassed, s.OnPass, "gate passed on "+model.Short(head))
	case failed && s.OnFailRule != nil:
		if d, ok := onFail(s, results); ok {
			return d
		}
	case failed && s.OnFail != "":
		return stage.Leave(model.StageFailed, s.OnFail, "gate failed: "+model.Failures(results))
	}
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	return stage.Stay()
}

// onFail is the gate's on_fail rule for results, or false when the rule names the check
// that must have failed and another did: the gate waits, as without on_fail.
func onFail(s *lang.Stage, results []model.GateResult) (stage.Decision, bool) {
	rule := s.OnFailRule
	why := "gate failed: " + model.Failures(results)
	if x := rule.WhenCheckFailed; x != "" {
		failed := false
		for _, r := range results {
			failed = failed || (r.Check == x && r.Status == model.GateFail)
		}
		if !failed {
			return stage.Stay(), false
		}
		why = fmt.Sprintf("gate failed: check %s failed: %s", x, model.FailedMessage(results, x))
	}
	return stage.Follow(rule, model.RuleOnFail, why), true
}

// Recheck holds the gate when its condition skips it or its conditions hold today.
func (Type) Recheck(g stage.Guard, s *lang.Stage) stage.Verdict {
	if v := stage.Judge(g, s, g.Holds); v != stage.Stops || !g.Failing(s) {
		return v
	}
	return stage.Fails
}

// StillHolds: a gate the run passed or skipped holds today, unless its condition does not
// hold today (the config skips it).
func (Type) StillHolds(g stage.Guard, s *lang.Stage, sr *model.StageRun) bool {
	return sr.Status != model.StagePassed && sr.Status != model.StageSkipped || g.Skips(s) || g.Holds(s)
}
