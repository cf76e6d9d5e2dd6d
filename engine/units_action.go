package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/agent"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// PlanAction plans the action of s with the planner the kernel's lists and notifications
// use.
func (c *stageContext) PlanAction(s *lang.Stage, eff model.Effect) stage.Plan {
	p := actionplan.Stage(c.e.Eval, c.run, s, eff, scope.TemplateEnv(scopeKernel{c.e}, c.p, c.run))
	ahead := p.Eff.Kind.WriteAhead() || (p.Eff.Kind == model.EffectDispatch && agent.DispatchWriteAhead(p.Eff.Dispatch)) // notifying an agent
	return stage.Plan{Eff: p.Eff, WriteAhead: ahead, Done: p.Done, Err: p.Err}
}

func (c *stageContext) MergeabilityPoll(sr *model.StageRun, what string) string {
	return c.e.Deadlines.Poll(c.e.Now, c.run, sr, what)
}

func (c *stageContext) RuleEffects(s *lang.Stage, rule *lang.Rule, kind string) {
	rules.Effects(rulesKernel{c.e}, c.p, c.run, s, rule, kind)
}

func (c *stageContext) DoneWhy(s *lang.Stage) string { return c.e.ActionDoneWhy(s) }
func (c *stageContext) OtherRepo() string            { return c.e.OtherRepo() }
func (c *stageContext) IssueRun() bool               { return c.e.Issue != nil }

// applyIn carries out dec, decided in c, of the run at s, and reports whether the run moved.
func (c *stageContext) applyIn(s *lang.Stage, dec stage.Decision) bool {
	if dec.Move != stage.MoveBack {
		return c.e.apply(c.p, c.run, s, dec)
	}
	if c.back == nil {
		c.run.Stages[s.ID].Status = model.StageFailed
		c.e.finish(c.run, model.RunFailed, lang.TargetFail, fmt.Sprintf("stage %q went back without the merge guard saying where", s.ID))
		return false
	}
	c.e.goBack(c.p, c.run, s.ID, *c.back)
	return true
}

// move carries out dec, a move of the kernel's a type asked for run at s.
func (e *eval) move(p *lang.Pipeline, run *model.Run, s *lang.Stage, dec stage.Decision) bool {
	switch dec.Move {
	case stage.MoveHold:
		return e.HoldAction(run, s, dec.Why, dec.Who)
	case stage.MoveEscalate:
		e.escalate(run, dec.Why)
		return false
	case stage.MoveFail:
		return e.stageFailed(run, s, dec.Why)
	case stage.MoveAbort:
		run.Stages[s.ID].Status = model.StageFailed
		e.finish(run, model.RunFailed, lang.TargetFail, dec.Why)
		return false
	case stage.MoveLoop:
		if rules.Loop(rulesKernel{e}, run, s, dec.Rule, dec.RuleKind, dec.Why) {
			return true
		}
		return e.HoldAction(run, s, dec.Why, dec.Who)
	case stage.MoveStop:
		e.finish(run, model.RunFailed, lang.TargetFail, dec.Why)
		return false
	}
	e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("not supported yet: move %d of stage %q", dec.Move, s.ID))
	return false
}

// actionFailed fails stage for why, which it shows: on to its on_failure, the join when
// it is a branch, else the run fails.
func (e *eval) actionFailed(run *model.Run, stage *lang.Stage, why string) bool {
	run.Stages[stage.ID].Message = why
	return e.stageFailed(run, stage, why)
}

// stageFailed fails stage for why: on to its on_failure, the join when it is a branch,
// else the run fails.
func (e *eval) stageFailed(run *model.Run, stage *lang.Stage, why string) bool {
	if stage.OnFailure != "" || parallel.IsBranch(e.Cfg.PipelineFor(run), run, stage) {
		e.leave(run, stage, model.StageFailed, stage.OnFailure, why)
		return true
	}
	run.Stages[stage.ID].Status = model.StageFailed
	e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("stage %q failed: %s", stage.ID, why))
	return false
}
