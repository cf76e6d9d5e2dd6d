package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/internal/settle"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/agent"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// unit is a stage type of its own package as the step loop sees it: the kernel hands it a
// Context bound to the run and applies the Decision it returns.
type unit struct {
	t stage.Type
}

func (u unit) step(e *eval, p *lang.Pipeline, run *model.Run, s *lang.Stage) bool {
	c := e.context(p, run)
	return c.applyIn(s, u.t.Step(c, run, s))
}

// branch moves b, a branch of the parallel stage run stands at, when the type may be one:
// a merge branch of an issue's or a multi-PR run merges the pull request it names.
func (u unit) branch(e *eval, p *lang.Pipeline, run *model.Run, b *lang.Stage) bool {
	br, ok := u.t.(stage.Branching)
	if !ok {
		return false
	}
	if _, done := subject.BranchMerge(subjectKernel{e}, p, run, b); done {
		return true
	}
	c := e.context(p, run)
	c.applyIn(b, br.Branch(c, run, b))
	return true
}

// deadline acts on d, a due deadline of a kind of the type's own, of run's stage s; a
// kind the type does not know fails the run loudly.
func (u unit) deadline(e *eval, p *lang.Pipeline, run *model.Run, s *lang.Stage, d model.Deadline) bool {
	dec, handled := u.t.Deadline(e.context(p, run), run, s, d)
	if !handled {
		e.finish(run, model.RunFailed, lang.TargetFail, "not supported yet: deadline "+d.Kind+" of stage "+s.ID)
		return false
	}
	return e.apply(p, run, s, dec)
}

func (u unit) answer(e *eval, p *lang.Pipeline, run *model.Run, s *lang.Stage, a answer) {
	at, ok := u.t.(stage.Answers)
	switch {
	case !ok:
		a.refuse(e, fmt.Sprintf("%q is not an agent stage", s.ID))
	case a.report != nil:
		e.apply(p, run, s, at.Report(e.context(p, run), run, s, a.report))
	default:
		e.apply(p, run, s, at.Failure(e.context(p, run), run, s, a.failure))
	}
}

// apply carries out dec, a type's decision of run at s, and reports whether the run moved.
func (e *eval) apply(p *lang.Pipeline, run *model.Run, s *lang.Stage, dec stage.Decision) bool {
	if dec.Move != stage.MoveNone {
		return e.move(p, run, s, dec)
	}
	if dec.Answer != (stage.Answer{}) {
		return e.answered(p, run, s, dec)
	}
	if dec.Rule != nil {
		return e.follow(p, run, s, dec)
	}
	if !dec.Leave {
		return false
	}
	e.leave(run, s, dec.Status, dec.Target, dec.Why)
	return !run.Status.Final()
}

// follow follows the rule dec names: its notify and label once per attempt, then its loop
// or its then; a rule that does not move the run keeps it waiting at s.
func (e *eval) follow(p *lang.Pipeline, run *model.Run, s *lang.Stage, dec stage.Decision) bool {
	rules.Effects(rulesKernel{e}, p, run, s, dec.Rule, dec.RuleKind)
	if dec.Rule.Action != rules.ActionNotifyAndWait && rules.Loop(rulesKernel{e}, run, s, dec.Rule, dec.RuleKind, dec.Why) {
		return true
	}
	run.Stages[s.ID].Status = model.StageWaiting
	run.Status = model.RunWaiting
	return false
}

// context is the Context of the types for run, which follows p.
func (e *eval) context(p *lang.Pipeline, run *model.Run) *stageContext {
	return &stageContext{e: e, p: p, run: run}
}

// stageContext is what a stage type sees of the evaluation: run's part of it.
type stageContext struct {
	e   *eval
	p   *lang.Pipeline
	run *model.Run
	// back is where the merge guard sends the run back, when it said so.
	back *guardPlan
}

func (c *stageContext) Facts() *model.Facts      { return c.e.Facts }
func (c *stageContext) Settings() *lang.Settings { return &c.e.Cfg.Settings }
func (c *stageContext) Pipeline() *lang.Pipeline { return c.p }
func (c *stageContext) Now() time.Time           { return c.e.Now }
func (c *stageContext) Env() lang.Env            { return scope.Env(scopeKernel{c.e}, c.p, c.run) }
func (c *stageContext) TemplateEnv() lang.Env    { return scope.TemplateEnv(scopeKernel{c.e}, c.p, c.run) }
func (c *stageContext) Emit(eff model.Effect)    { c.e.Effects = append(c.e.Effects, eff) }
func (c *stageContext) Logf(format string, args ...any) {
	c.e.Logf(format, args...)
}
func (c *stageContext) Conditions(s *lang.Stage) ([]model.GateResult, bool, bool) {
	restore := c.e.withRun(c.p, c.run)
	defer restore()
	return conditions(c.e, s)
}
func (c *stageContext) Intend(sr *model.StageRun, eff *model.Effect) {
	settle.Intend(settleKernel{c.e}, c.run, sr, eff)
}

// effectsOf is the type of s when it reads the outcomes of its own effects, else nil.
func effectsOf(s *lang.Stage) stage.Effects {
	if s == nil {
		return nil
	}
	fx, _ := stageTypes[s.Type].t.(stage.Effects)
	return fx
}

// answer is what came back for one attempt of one stage of one run, of the work the stage
// sent out: a report, or the end of the workflow run that carried the work without one.
// Exactly one of its fields is set.
type answer struct {
	report  *model.Report
	failure *model.AgentFailure
}

// deliver hands a to the type of the stage it names, once the run is found standing at
// that attempt of it; an answer for anything else is refused and logged.
func (e *eval) deliver(a answer) {
	runID, stageID, attempt := a.target()
	if r := a.report; r != nil {
		if why := badReport(r); why != "" {
			refuseReport(e, r, why)
			return
		}
	}
	run, p, stage, why := e.tree().StandingAt(e.St.Past, e.Subject(), runID, stageID, attempt)
	if why != "" {
		a.refuse(e, why)
		return
	}
	stageTypes[stage.Type].answer(e, p, run, stage, a)
}

func (a answer) target() (run, stage string, attempt int) {
	if a.report != nil {
		return a.report.Run, a.report.Stage, a.report.Attempt
	}
	return a.failure.Run, a.failure.Stage, a.failure.Attempt
}

func (a answer) refuse(e *eval, why string) {
	if a.report != nil {
		refuseReport(e, a.report, why)
		return
	}
	ignoreFailure(e, a.failure, why)
}

// badReport says what makes r no report at all, whatever it is for.
func badReport(r *model.Report) string {
	if !slices.Contains(agent.Verdicts, r.Verdict) {
		return fmt.Sprintf("unknown verdict %q (one of %s)", r.Verdict, strings.Join(agent.Verdicts, ", "))
	}
	if b, err := json.Marshal(r.Outputs); err != nil || len(b) > agent.MaxOutputs {
		return fmt.Sprintf("its outputs are not JSON or larger than %d bytes", agent.MaxOutputs)
	}
	return ""
}

func refuseReport(e *eval, r *model.Report, why string) {
	e.Logf("%s", agent.Refused(r, why))
}

func ignoreFailure(e *eval, f *model.AgentFailure, why string) {
	e.Logf("%s", agent.Ignored(f, why))
}

// answered applies dec, which follows an answer of the work s sent out (its Answer is
// set), and reports whether the run moved.
func (e *eval) answered(p *lang.Pipeline, run *model.Run, s *lang.Stage, dec stage.Decision) bool {
	moved := true
	switch {
	case dec.Error != "":
		moved = e.agentError(run, s, dec.Error)
	case e.LeaveBranch(run, s, parallel.VerdictStatus(dec.Verdict), dec.Why):
	case dec.Rule != nil:
		rules.Verdict(rulesKernel{e}, p, run, s, dec.Verdict, dec.Rule, dec.Why)
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
