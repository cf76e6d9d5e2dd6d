package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/guardwalk"
	"github.com/org/pipeline-action/engine/lang"
)

// Sub-pipelines. Entering a `type: pipeline` stage starts a child run of the named
// pipeline on the same subject, in the same evaluation (so the state that records the
// entry records the child, and a repeated or concurrent event — the state write is a
// compare-and-swap — can never start a second child for the same attempt). The child is
// a run like any other in State.Runs, numbered like them, linked to its parent by
// Run.Parent ("<parent run id>/<stage id>") and Run.ParentAttempt, and to it from the
// parent's StageRun.Child. The parent's stage evaluates the child: each evaluation of
// the parent advances the child first, then looks at how it stands.
//
//   - The child completed: the stage succeeds with outputs = the child's stages' outputs,
//     by stage id (`stages.<pipeline stage>.outputs.<child stage>.<key>`), and the parent
//     follows on_complete at once.
//   - The child failed, was cancelled, or escalated: the stage's on_error applies (retry
//     starts a new attempt, which starts a new child; then its `then`, default fail). An
//     escalated child is ended (cancelled) as it hands its escalation to the parent.
//   - A child whose parent no longer stands at that attempt of that stage (cancelled,
//     timed out, moved on by a command, failed) is cancelled (reapChildren).
//
// The nesting limit (settings.max_nesting) holds at run time: a child that would nest
// deeper fails its parent loudly.

// descends reports whether r is run or a run below it (its child, its child's child …).
func (e *eval) descends(r, run *model.Run) bool {
	for n := 0; r != nil && n <= 64; n++ {
		if r == run || r.ID == run.ID {
			return true
		}
		r, _ = e.ParentOf(r)
	}
	return false
}

// startChild starts the child run for run's current attempt of stage, a `type: pipeline`
// stage of p or a parallel branch of type pipeline (stage is then the branch, and its
// id names the child's link). It returns the child, or nil and why it could not start
// (the caller applies the stage's on_error, or fails the run). The child's context is
// its pipeline's own `context:`, the parent's context over it, and stage's `context:`
// (rendered over the parent's env) over that.
func (e *eval) startChild(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (*model.Run, string) {
	sr := run.Stages[stage.ID]
	if sr == nil {
		return nil, fmt.Sprintf("stage %q has not been entered", stage.ID)
	}
	if c := e.ChildOf(run, stage); c != nil {
		return c, "" // started already for this attempt
	}
	cfg := e.ConfigFor(run)
	cp := cfg.Pipeline(stage.Pipeline)
	if cp == nil {
		return nil, fmt.Sprintf("sub-pipeline %q of stage %q is not in the config", stage.Pipeline, stage.ID)
	}
	if limit := core.MaxNesting(cfg); run.Depth+1 > limit {
		return nil, fmt.Sprintf("sub-pipeline %q of stage %q would nest %d levels deep, more than settings.max_nesting (%d)",
			stage.Pipeline, stage.ID, run.Depth+1, limit)
	}
	// The parent's context and the stage's, rendered over the parent's env.
	env := e.env(p, run)
	passed := map[string]any{}
	for k, v := range run.Context {
		passed[k] = v
	}
	for _, kv := range stage.Context {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			return nil, fmt.Sprintf("context %q of stage %q: %v", kv.Key, stage.ID, err)
		}
		passed[kv.Key] = lang.JSONValue(v)
	}
	n := e.NextRunNumber(cp.Name)
	child := &model.Run{
		ID:            fmt.Sprintf("%s/%s/%d", cp.Name, core.SubjectNumberText(run.Subject), n),
		Pipeline:      cp.Name,
		ConfigOID:     run.ConfigOID,
		Subject:       run.Subject,
		Status:        model.RunRunning,
		Stages:        map[string]*model.StageRun{},
		StartedAt:     e.Now,
		UpdatedAt:     e.Now,
		Parent:        model.ParentRef(run.ID, stage.ID),
		ParentAttempt: sr.Attempt,
		Depth:         run.Depth + 1,
		Head:          run.Head, // what people did before the parent saw its head stays stale
		HeadSince:     run.HeadSince,
	}
	e.St.Runs = append(e.St.Runs, child)
	sr.Child = child.ID
	why := fmt.Sprintf("started by stage %q of run %s (attempt %d)", stage.ID, run.ID, sr.Attempt)
	e.Logf("run %s %s", child.ID, why)
	e.initContext(cp, child)
	if child.Context == nil && len(passed) > 0 {
		child.Context = map[string]any{}
	}
	for k, v := range passed {
		child.Context[k] = v
	}
	e.initVariables(cp, child) // its own pipeline's variables, over the context it was given
	e.NoteHead(child)
	if len(cp.Stages) == 0 {
		e.finish(child, model.RunCompleted, lang.TargetComplete, "the pipeline has no stages")
		return child, ""
	}
	e.enter(child, "", cp.Stages[0].ID, why)
	return child, ""
}

// runChild starts — once per attempt — and advances the child run of run's stage, a
// `type: pipeline` stage of p or a parallel branch of type pipeline (whose StageRun,
// run.Stages[branch.ID], holds its attempt), and returns the child as it stands after
// this evaluation: the caller follows its end (completed: ChildOutputs; failed,
// cancelled or escalated: the stage's on_error; an escalated child is ended with
// endEscalatedChild). When no child could start it returns nil, why, and whether that is
// fatal for the run (the nesting limit, an unknown pipeline, a construct not supported
// yet: the run fails loudly) rather than an error on_error handles (a context template
// that does not render).
func (e *eval) runChild(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (child *model.Run, why string, fatal bool) {
	sr := run.Stages[stage.ID]
	child = e.ChildOf(run, stage)
	if child == nil {
		if sr != nil && sr.Child != "" && e.RunByID(sr.Child) == nil {
			// The child left the live state before its end reached the parent (it cannot
			// in normal operation: a child's end is followed in the evaluation it happens in).
			return nil, fmt.Sprintf("the sub-pipeline run %s is no longer in the state", sr.Child), false
		}
		child, why = e.startChild(p, run, stage)
		if child == nil {
			fatal = strings.Contains(why, "max_nesting") || strings.Contains(why, "not in the config")
			return nil, why, fatal
		}
	}
	if !child.Status.Final() && child.Status != model.RunEscalated {
		if _, busy := core.OpenIntent(child); !busy {
			if cp := e.Cfg.PipelineFor(child); cp != nil {
				e.advanceRun(cp, child)
			} else {
				e.finish(child, model.RunFailed, lang.TargetFail, fmt.Sprintf("pipeline %q is no longer in the config", child.Pipeline))
			}
		}
	}
	return child, "", false
}

// subPipeline evaluates pipeline stage of run: starts its child on entry, advances the
// child, and follows the child's end. It reports whether run moved.
func (e *eval) subPipeline(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	child, why, fatal := e.runChild(p, run, stage)
	switch {
	case child == nil && fatal:
		sr := run.Stages[stage.ID]
		sr.Status, sr.Message = model.StageFailed, why
		e.finish(run, model.RunFailed, lang.TargetFail, why)
		return false
	case child == nil:
		return e.childError(run, stage, why)
	}
	return e.followChild(run, stage, child)
}

// endEscalatedChild ends a child that escalated: its escalation goes to its parent's
// stage (on_error), so it stops waiting for a person itself.
func (e *eval) endEscalatedChild(child *model.Run, run *model.Run, stage *lang.Stage) {
	e.finish(child, model.RunCancelled, TargetCancelled, fmt.Sprintf("its escalation goes to stage %q of run %s (on_error)", stage.ID, run.ID))
}

// followChild makes run's pipeline stage follow where its child stands.
func (e *eval) followChild(run *model.Run, stage *lang.Stage, child *model.Run) bool {
	sr := run.Stages[stage.ID]
	switch child.Status {
	case model.RunCompleted:
		sr.Outputs = core.ChildOutputs(child)
		sr.Errors = 0
		sr.Message = ""
		sr.Results = nil
		e.leave(run, stage, model.StageSucceeded, stage.OnComplete, fmt.Sprintf("sub-pipeline run %s completed", child.ID))
		return true
	case model.RunEscalated:
		why := fmt.Sprintf("sub-pipeline run %s escalated at %s", child.ID, child.Stage)
		if child.Message != "" {
			why += ": " + child.Message
		}
		e.endEscalatedChild(child, run, stage)
		return e.childError(run, stage, why)
	case model.RunFailed, model.RunCancelled:
		why := fmt.Sprintf("sub-pipeline run %s %s at %s", child.ID, child.Status, child.Stage)
		if child.Message != "" {
			why += ": " + child.Message
		}
		return e.childError(run, stage, why)
	}
	sr.Status = model.StageWaiting
	msg := fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	who := "the sub-pipeline"
	if csr := child.Stages[child.Stage]; csr != nil {
		if r := core.FirstUnmet(csr.Results); r != "" {
			msg += ": " + r
		}
		for _, r := range csr.Results {
			if !r.Optional && r.Status != model.GatePass && r.Who != "" {
				who = r.Who
				break
			}
		}
	}
	sr.Message = msg
	sr.Results = []model.GateResult{{Check: "sub-pipeline", Status: model.GatePending, Message: msg, Who: who}}
	run.Status = model.RunWaiting
	if child.Status == model.RunRunning {
		run.Status = model.RunRunning
	}
	return false
}

// childError applies the on_error of run's pipeline stage to a child that did not
// complete: a new attempt (a new child) while retries remain, then its `then`.
func (e *eval) childError(run *model.Run, stage *lang.Stage, why string) bool {
	return e.agentError(run, stage, why) // the policy is the same as an agent's
}

// reapChildren cancels every unfinished child whose parent no longer waits for it: the
// parent is final, escalated or gone, or stands elsewhere than that attempt of the stage
// that started the child. And a child that ended while its parent still stands at that
// attempt (cancelled by its own on_events, say) is followed at once, so that no parent is
// left hanging on a child that ended. Parents are handled before their children, so a
// chain ends from the top in one pass.
func (e *eval) reapChildren() {
	for changed := true; changed; {
		changed = false
		for _, child := range e.St.Runs {
			if child.Parent == "" {
				continue
			}
			parent, stageID := e.ParentOf(child)
			waits := parent != nil && !parent.Status.Final() && parent.Status != model.RunEscalated && e.StandsAt(parent, stageID)
			if waits {
				sr := parent.Stages[stageID]
				waits = sr != nil && sr.Child == child.ID && sr.Attempt == child.ParentAttempt && !core.IsDone(sr.Status) &&
					sr.Status != model.StageSkipped && sr.Status != model.StageCancelled
			}
			switch {
			case !waits && !child.Status.Final():
				why := "its parent run is no longer in the state"
				if parent != nil {
					why = fmt.Sprintf("its parent run %s is %s at %s", parent.ID, parent.Status, parent.Stage)
					if sr := parent.Stages[stageID]; sr != nil && !parent.Status.Final() && parent.Status != model.RunEscalated {
						why = fmt.Sprintf("its parent run %s left attempt %d of %q", parent.ID, child.ParentAttempt, stageID)
						if sr.Status == model.StageCancelled && sr.Message != "" {
							why += " (" + sr.Message + ")"
						}
					}
				}
				e.finish(child, model.RunCancelled, TargetCancelled, why)
				changed = true
			case waits && (child.Status.Final() || child.Status == model.RunEscalated):
				if p := e.Cfg.PipelineFor(parent); p != nil {
					if stage := p.Stage(stageID); stage != nil && stage.Type == lang.StagePipeline {
						e.followChild(parent, stage, child)
						changed = true
					} else if b := core.BranchIn(p.Stage(parent.Stage), stageID); b != nil && b.Type == lang.StagePipeline {
						e.followBranchChild(parent, b, child)
						changed = true
					}
				}
			}
		}
	}
}

// openIntentDeep reports an intent in flight of run or of a run below it: the run, and
// the runs after it, wait for its outcome.
func (e *eval) openIntentDeep(run *model.Run) (model.Intent, bool) {
	if it, ok := core.OpenIntent(run); ok {
		return it, true
	}
	for _, r := range e.St.Runs {
		if r.Parent == "" || r.Status.Final() || !e.descends(r, run) {
			continue
		}
		if it, ok := core.OpenIntent(r); ok {
			return it, true
		}
	}
	return model.Intent{}, false
}

// refusedDeep reports whether run or a run below it had an effect refused in this Settle.
func (e *eval) refusedDeep(run *model.Run) bool {
	for id := range e.Settle.Refused {
		if r := e.RunByID(id); r != nil && e.descends(r, run) {
			return true
		}
	}
	return false
}

// commandSkips reports whether a chat-op command passes over run: every command but
// cancel and status acts on the innermost live run of a chain, so a parent standing at a
// pipeline stage whose child is live is left to its child. cancel cancels every run of
// the subject (parents and children), and status reports on each.
func (e *eval) commandSkips(run *model.Run, verb string) bool {
	return verb != model.CmdCancel && verb != model.CmdStatus && len(e.LiveChildren(run)) > 0
}

// childMerged reports whether the pull request was merged by a live run below run (its
// merge stage done, or ahead of it with the state after the merge not saved): the closed
// event of that merge does not cancel run, whose child ends completed when advanced.
func (e *eval) childMerged(run *model.Run) bool {
	if e.Facts.PR.State != model.PRMerged {
		return false
	}
	for _, r := range e.St.Runs {
		if r == run || r.Parent == "" || !e.descends(r, run) {
			continue
		}
		p := e.Cfg.PipelineFor(r)
		if p == nil {
			continue
		}
		if !r.Status.Final() && e.ownMerge(p, r) != nil {
			return true
		}
		// Completed by its merge (its intent reconciled in this evaluation), and its parent
		// has not followed it yet.
		if s := p.Stage(r.Stage); r.Status != model.RunCompleted || s == nil || s.Type != lang.StageAction || s.Action != lang.ActionMergePR {
			continue
		}
		if parent, link := e.ParentOf(r); parent != nil && e.StandsAt(parent, link) &&
			parent.Stages[link] != nil && parent.Stages[link].Child == r.ID {
			return true
		}
	}
	return false
}

// pipelineBranch evaluates branch b, of type pipeline, of run's current parallel stage:
// it starts the branch's child once per attempt of the branch, advances it, and ends the
// branch as the child ends (followBranchChild); the join decides from there. The
// parallel stage's evaluation calls it for each open pipeline branch.
func (e *eval) pipelineBranch(p *lang.Pipeline, run *model.Run, b *lang.Stage) {
	child, why, fatal := e.runChild(p, run, b)
	switch {
	case child == nil && fatal:
		if bsr := run.Stages[b.ID]; bsr != nil {
			bsr.Status, bsr.Message = model.StageFailed, why
		}
		e.finish(run, model.RunFailed, lang.TargetFail, why)
	case child == nil:
		e.LeaveBranch(run, b, model.StageFailed, why)
	default:
		e.followBranchChild(run, b, child)
	}
}

// followBranchChild makes pipeline branch b of run follow where its child stands.
// Branches have no on_error: the child completing is the branch succeeding, with the
// child's outputs (by child stage id, as a pipeline stage's); a child that fails, is
// cancelled or escalates fails its branch (an escalated child is ended: the join
// decides for its parent). A child that ended on a rejecting verdict — the stage it
// ended at recorded reject, revise or followup, which its pipeline had no rule for or
// whose rule failed or escalated the run — makes its branch rejected, with that verdict,
// so the parallel stage's on_any_reject applies; its `feedback` in `branches` is that
// stage's outputs.feedback (RejectingStage).
func (e *eval) followBranchChild(run *model.Run, b *lang.Stage, child *model.Run) {
	bsr := run.Stages[b.ID]
	switch child.Status {
	case model.RunCompleted:
		bsr.Outputs = core.ChildOutputs(child)
		e.LeaveBranch(run, b, model.StageSucceeded, fmt.Sprintf("sub-pipeline run %s completed", child.ID))
		return
	case model.RunEscalated, model.RunFailed, model.RunCancelled:
		why := fmt.Sprintf("sub-pipeline run %s %s at %s", child.ID, child.Status, child.Stage)
		if child.Message != "" {
			why += ": " + child.Message
		}
		_, bsr.Verdict = core.RejectingStage(child)
		bsr.Outputs = core.ChildOutputs(child)
		if child.Status == model.RunEscalated {
			// Its escalation fails its branch; the join decides for the parent.
			e.finish(child, model.RunCancelled, TargetCancelled, fmt.Sprintf("its escalation fails branch %q of run %s (the join decides)", b.ID, run.ID))
		}
		e.LeaveBranch(run, b, model.StageFailed, why)
		return
	}
	bsr.Status = model.StageWaiting
	bsr.Message = fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	who := "the sub-pipeline " + b.Pipeline
	if csr := child.Stages[child.Stage]; csr != nil {
		for _, r := range csr.Results {
			if !r.Optional && r.Status != model.GatePass && r.Who != "" {
				who = r.Who
				break
			}
		}
	}
	bsr.Results = []model.GateResult{{Check: "sub-pipeline", Status: model.GatePending, Message: bsr.Message, Who: who}}
}

// pipelineType starts a child pipeline and waits for its end.
type pipelineType struct {
	noDeadlines
	noAnswers
}

// recheck: a pipeline stage holds when its sub-pipeline holds to its end.
func (pipelineType) recheck(g *guardCheck, s *lang.Stage) stage.Verdict {
	return guardwalk.Judge(s, g.Skips, g.subHolds)
}

func (pipelineType) stillHolds(g *guardCheck, s *lang.Stage, sr *model.StageRun) bool {
	return sr.Status != model.StageSucceeded && sr.Status != model.StageSkipped || g.Skips(s) || g.subHolds(s)
}

func (pipelineType) worker(s *lang.Stage) (kind, name string) { return "pipeline", s.Pipeline }

func (pipelineType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.subPipeline(p, run, stage)
}

func (pipelineType) branch(e *eval, p *lang.Pipeline, run *model.Run, b *lang.Stage) bool {
	e.pipelineBranch(p, run, b)
	return true
}
