package engine

import (
	"fmt"
	"sort"
	"strings"

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

// configFor returns the config run follows: the pinned one it started under, or e.cfg.
func (e *eval) configFor(run *Run) *lang.Config {
	if run.ConfigOID != "" && run.ConfigOID != e.cfg.BlobOID {
		if old := e.cfg.Pinned[run.ConfigOID]; old != nil {
			return old
		}
	}
	return e.cfg
}

// maxNesting is the run-time nesting limit of cfg.
func maxNesting(cfg *lang.Config) int {
	if cfg.Settings.MaxNesting > 0 {
		return cfg.Settings.MaxNesting
	}
	return lang.DefaultMaxNesting
}

// runByID returns the run of the state with that id, or nil.
func (e *eval) runByID(id string) *Run {
	for _, r := range e.st.Runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// childOf returns the child run of run's current attempt of stage, or nil.
func (e *eval) childOf(run *Run, stage *lang.Stage) *Run {
	sr := run.Stages[stage.ID]
	if sr == nil || sr.Child == "" {
		return nil
	}
	c := e.runByID(sr.Child)
	if c == nil || c.Parent != ParentRef(run.ID, stage.ID) || c.ParentAttempt != sr.Attempt {
		return nil
	}
	return c
}

// parentOf returns the parent run of child and the stage id it was started by; nil when
// child has no parent or its parent is not in the state.
func (e *eval) parentOf(child *Run) (*Run, string) {
	if child.Parent == "" {
		return nil, ""
	}
	id, stage := splitParent(child.Parent)
	return e.runByID(id), stage
}

// liveChildren returns the children of run that are not final and that run still waits
// for (at its current stage, or at an open branch of it).
func (e *eval) liveChildren(run *Run) []*Run {
	if run.Status.Final() {
		return nil
	}
	var out []*Run
	for _, c := range e.st.Runs {
		if c.Parent == "" || c.Status.Final() {
			continue
		}
		id, stage := splitParent(c.Parent)
		if id != run.ID || !e.standsAt(run, stage) {
			continue
		}
		if sr := run.Stages[stage]; sr != nil && sr.Child == c.ID && sr.Attempt == c.ParentAttempt {
			out = append(out, c)
		}
	}
	return out
}

// descends reports whether r is run or a run below it (its child, its child's child …).
func (e *eval) descends(r, run *Run) bool {
	for n := 0; r != nil && n <= 64; n++ {
		if r == run || r.ID == run.ID {
			return true
		}
		r, _ = e.parentOf(r)
	}
	return false
}

// startChild starts the child run for run's current attempt of stage, a `type: pipeline`
// stage of p or a parallel branch of type pipeline (stage is then the branch, and its
// id names the child's link). It returns the child, or nil and why it could not start
// (the caller applies the stage's on_error, or fails the run). The child's context is
// its pipeline's own `context:`, the parent's context over it, and stage's `context:`
// (rendered over the parent's env) over that.
func (e *eval) startChild(p *lang.Pipeline, run *Run, stage *lang.Stage) (*Run, string) {
	sr := run.Stages[stage.ID]
	if sr == nil {
		return nil, fmt.Sprintf("stage %q has not been entered", stage.ID)
	}
	if c := e.childOf(run, stage); c != nil {
		return c, "" // started already for this attempt
	}
	cfg := e.configFor(run)
	cp := cfg.Pipeline(stage.Pipeline)
	if cp == nil {
		return nil, fmt.Sprintf("sub-pipeline %q of stage %q is not in the config", stage.Pipeline, stage.ID)
	}
	if limit := maxNesting(cfg); run.Depth+1 > limit {
		return nil, fmt.Sprintf("sub-pipeline %q of stage %q would nest %d levels deep, more than settings.max_nesting (%d)",
			stage.Pipeline, stage.ID, run.Depth+1, limit)
	}
	if what := unsupportedPipeline(cp); what != "" {
		return nil, "not supported yet: " + what
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
	n := e.nextRunNumber(cp.Name) // run_number.go
	child := &Run{
		ID:            fmt.Sprintf("%s/%s/%d", cp.Name, subjectNumberText(run.Subject), n),
		Pipeline:      cp.Name,
		ConfigOID:     run.ConfigOID,
		Subject:       run.Subject,
		Status:        RunRunning,
		Stages:        map[string]*StageRun{},
		StartedAt:     e.now,
		UpdatedAt:     e.now,
		Parent:        ParentRef(run.ID, stage.ID),
		ParentAttempt: sr.Attempt,
		Depth:         run.Depth + 1,
		Head:          run.Head, // what people did before the parent saw its head stays stale
		HeadSince:     run.HeadSince,
	}
	e.st.Runs = append(e.st.Runs, child)
	sr.Child = child.ID
	why := fmt.Sprintf("started by stage %q of run %s (attempt %d)", stage.ID, run.ID, sr.Attempt)
	e.logf("run %s %s", child.ID, why)
	e.initContext(cp, child)
	if child.Context == nil && len(passed) > 0 {
		child.Context = map[string]any{}
	}
	for k, v := range passed {
		child.Context[k] = v
	}
	e.initVariables(cp, child) // its own pipeline's variables, over the context it was given
	e.noteHead(child)          // authority.go
	if len(cp.Stages) == 0 {
		e.finish(child, RunCompleted, lang.TargetComplete, "the pipeline has no stages")
		return child, ""
	}
	e.enter(child, "", cp.Stages[0].ID, why)
	return child, ""
}

// subjectNumberText is the number of an "owner/repo#N" subject, as written.
func subjectNumberText(subject string) string {
	if i := strings.LastIndexByte(subject, '#'); i >= 0 {
		return subject[i+1:]
	}
	return subject
}

// runChild starts — once per attempt — and advances the child run of run's stage, a
// `type: pipeline` stage of p or a parallel branch of type pipeline (whose StageRun,
// run.Stages[branch.ID], holds its attempt), and returns the child as it stands after
// this evaluation: the caller follows its end (completed: childOutputs; failed,
// cancelled or escalated: the stage's on_error; an escalated child is ended with
// endEscalatedChild). When no child could start it returns nil, why, and whether that is
// fatal for the run (the nesting limit, an unknown pipeline, a construct not supported
// yet: the run fails loudly) rather than an error on_error handles (a context template
// that does not render).
func (e *eval) runChild(p *lang.Pipeline, run *Run, stage *lang.Stage) (child *Run, why string, fatal bool) {
	sr := run.Stages[stage.ID]
	child = e.childOf(run, stage)
	if child == nil {
		if sr != nil && sr.Child != "" && e.runByID(sr.Child) == nil {
			// The child left the live state before its end reached the parent (it cannot
			// in normal operation: a child's end is followed in the evaluation it happens in).
			return nil, fmt.Sprintf("the sub-pipeline run %s is no longer in the state", sr.Child), false
		}
		child, why = e.startChild(p, run, stage)
		if child == nil {
			fatal = strings.Contains(why, "max_nesting") || strings.HasPrefix(why, "not supported yet") || strings.Contains(why, "not in the config")
			return nil, why, fatal
		}
	}
	if !child.Status.Final() && child.Status != RunEscalated {
		if _, busy := openIntent(child); !busy {
			if cp := e.cfg.PipelineFor(child); cp != nil {
				e.advanceRun(cp, child)
			} else {
				e.finish(child, RunFailed, lang.TargetFail, fmt.Sprintf("pipeline %q is no longer in the config", child.Pipeline))
			}
		}
	}
	return child, "", false
}

// subPipeline evaluates pipeline stage of run: starts its child on entry, advances the
// child, and follows the child's end. It reports whether run moved.
func (e *eval) subPipeline(p *lang.Pipeline, run *Run, stage *lang.Stage) bool {
	child, why, fatal := e.runChild(p, run, stage)
	switch {
	case child == nil && fatal:
		sr := run.Stages[stage.ID]
		sr.Status, sr.Message = StageFailed, why
		e.finish(run, RunFailed, lang.TargetFail, why)
		return false
	case child == nil:
		return e.childError(run, stage, why)
	}
	return e.followChild(run, stage, child)
}

// endEscalatedChild ends a child that escalated: its escalation goes to its parent's
// stage (on_error), so it stops waiting for a person itself.
func (e *eval) endEscalatedChild(child *Run, run *Run, stage *lang.Stage) {
	e.finish(child, RunCancelled, TargetCancelled, fmt.Sprintf("its escalation goes to stage %q of run %s (on_error)", stage.ID, run.ID))
}

// followChild makes run's pipeline stage follow where its child stands.
func (e *eval) followChild(run *Run, stage *lang.Stage, child *Run) bool {
	sr := run.Stages[stage.ID]
	switch child.Status {
	case RunCompleted:
		sr.Outputs = childOutputs(child)
		sr.Errors = 0
		sr.Message = ""
		sr.Results = nil
		e.leave(run, stage, StageSucceeded, stage.OnComplete, fmt.Sprintf("sub-pipeline run %s completed", child.ID))
		return true
	case RunEscalated:
		why := fmt.Sprintf("sub-pipeline run %s escalated at %s", child.ID, child.Stage)
		if child.Message != "" {
			why += ": " + child.Message
		}
		e.endEscalatedChild(child, run, stage)
		return e.childError(run, stage, why)
	case RunFailed, RunCancelled:
		why := fmt.Sprintf("sub-pipeline run %s %s at %s", child.ID, child.Status, child.Stage)
		if child.Message != "" {
			why += ": " + child.Message
		}
		return e.childError(run, stage, why)
	}
	sr.Status = StageWaiting
	msg := fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	who := "the sub-pipeline"
	if csr := child.Stages[child.Stage]; csr != nil {
		if r := firstUnmet(csr.Results); r != "" {
			msg += ": " + r
		}
		for _, r := range csr.Results {
			if !r.Optional && r.Status != GatePass && r.Who != "" {
				who = r.Who
				break
			}
		}
	}
	sr.Message = msg
	sr.Results = []GateResult{{Check: "sub-pipeline", Status: GatePending, Message: msg, Who: who}}
	run.Status = RunWaiting
	if child.Status == RunRunning {
		run.Status = RunRunning
	}
	return false
}

// childError applies the on_error of run's pipeline stage to a child that did not
// complete: a new attempt (a new child) while retries remain, then its `then`.
func (e *eval) childError(run *Run, stage *lang.Stage, why string) bool {
	return e.agentError(run, stage, why) // the policy is the same as an agent's
}

// childOutputs are the outputs a completed child hands its parent's stage: each of its
// stages' outputs, by stage id.
func childOutputs(child *Run) map[string]any {
	out := map[string]any{}
	ids := make([]string, 0, len(child.Stages))
	for id := range child.Stages {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if o := child.Stages[id].Outputs; len(o) > 0 {
			out[id] = o
		}
	}
	if len(out) == 0 {
		return nil
	}
	return lang.JSONSafe(out)
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
		for _, child := range e.st.Runs {
			if child.Parent == "" {
				continue
			}
			parent, stageID := e.parentOf(child)
			waits := parent != nil && !parent.Status.Final() && parent.Status != RunEscalated && e.standsAt(parent, stageID)
			if waits {
				sr := parent.Stages[stageID]
				waits = sr != nil && sr.Child == child.ID && sr.Attempt == child.ParentAttempt && !isDone(sr.Status) &&
					sr.Status != StageSkipped && sr.Status != StageCancelled
			}
			switch {
			case !waits && !child.Status.Final():
				why := "its parent run is no longer in the state"
				if parent != nil {
					why = fmt.Sprintf("its parent run %s is %s at %s", parent.ID, parent.Status, parent.Stage)
					if sr := parent.Stages[stageID]; sr != nil && !parent.Status.Final() && parent.Status != RunEscalated {
						why = fmt.Sprintf("its parent run %s left attempt %d of %q", parent.ID, child.ParentAttempt, stageID)
						if sr.Status == StageCancelled && sr.Message != "" {
							why += " (" + sr.Message + ")"
						}
					}
				}
				e.finish(child, RunCancelled, TargetCancelled, why)
				changed = true
			case waits && (child.Status.Final() || child.Status == RunEscalated):
				if p := e.cfg.PipelineFor(parent); p != nil {
					if stage := p.Stage(stageID); stage != nil && stage.Type == lang.StagePipeline {
						e.followChild(parent, stage, child)
						changed = true
					} else if b := branchIn(p.Stage(parent.Stage), stageID); b != nil && b.Type == lang.StagePipeline {
						e.followBranchChild(parent, b, child)
						changed = true
					}
				}
			}
		}
	}
}

// standsAt reports whether run stands at stage id: its current stage, or a branch of its
// current (parallel) stage that is still open.
func (e *eval) standsAt(run *Run, id string) bool {
	if run.Stage == id {
		return true
	}
	p := e.cfg.PipelineFor(run)
	if p == nil {
		return false
	}
	if b := branchIn(p.Stage(run.Stage), id); b != nil {
		sr := run.Stages[id]
		return sr != nil && (sr.Status == StageWaiting || sr.Status == StageActing || sr.Status == StageRetrying)
	}
	return false
}

// branchIn returns the branch id of parallel stage s, or nil.
func branchIn(s *lang.Stage, id string) *lang.Stage {
	if s == nil || s.Type != lang.StageParallel {
		return nil
	}
	for _, b := range s.Branches {
		if b != nil && b.ID == id {
			return b
		}
	}
	return nil
}

// openIntentDeep reports an intent in flight of run or of a run below it: the run, and
// the runs after it, wait for its outcome.
func (e *eval) openIntentDeep(run *Run) (Intent, bool) {
	if it, ok := openIntent(run); ok {
		return it, true
	}
	for _, r := range e.st.Runs {
		if r.Parent == "" || r.Status.Final() || !e.descends(r, run) {
			continue
		}
		if it, ok := openIntent(r); ok {
			return it, true
		}
	}
	return Intent{}, false
}

// refusedDeep reports whether run or a run below it had an effect refused in this Settle.
func (e *eval) refusedDeep(run *Run) bool {
	for id := range e.refused {
		if r := e.runByID(id); r != nil && e.descends(r, run) {
			return true
		}
	}
	return false
}

// commandSkips reports whether a chat-op command passes over run: every command but
// cancel and status acts on the innermost live run of a chain, so a parent standing at a
// pipeline stage whose child is live is left to its child. cancel cancels every run of
// the subject (parents and children), and status reports on each.
func (e *eval) commandSkips(run *Run, verb string) bool {
	return verb != CmdCancel && verb != CmdStatus && len(e.liveChildren(run)) > 0
}

// childMerged reports whether the pull request was merged by a live run below run (its
// merge stage done, or ahead of it with the state after the merge not saved): the closed
// event of that merge does not cancel run, whose child ends completed when advanced.
func (e *eval) childMerged(run *Run) bool {
	if e.facts.PR.State != PRMerged {
		return false
	}
	for _, r := range e.st.Runs {
		if r == run || r.Parent == "" || !e.descends(r, run) {
			continue
		}
		p := e.cfg.PipelineFor(r)
		if p == nil {
			continue
		}
		if !r.Status.Final() && e.ownMerge(p, r) != nil {
			return true
		}
		// Completed by its merge (its intent reconciled in this evaluation), and its parent
		// has not followed it yet.
		if s := p.Stage(r.Stage); r.Status != RunCompleted || s == nil || s.Type != lang.StageAction || s.Action != lang.ActionMergePR {
			continue
		}
		if parent, link := e.parentOf(r); parent != nil && e.standsAt(parent, link) &&
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
func (e *eval) pipelineBranch(p *lang.Pipeline, run *Run, b *lang.Stage) {
	child, why, fatal := e.runChild(p, run, b)
	switch {
	case child == nil && fatal:
		if bsr := run.Stages[b.ID]; bsr != nil {
			bsr.Status, bsr.Message = StageFailed, why
		}
		e.finish(run, RunFailed, lang.TargetFail, why)
	case child == nil:
		e.leaveBranch(run, b, StageFailed, why)
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
// stage's outputs.feedback (rejectingStage).
func (e *eval) followBranchChild(run *Run, b *lang.Stage, child *Run) {
	bsr := run.Stages[b.ID]
	switch child.Status {
	case RunCompleted:
		bsr.Outputs = childOutputs(child)
		e.leaveBranch(run, b, StageSucceeded, fmt.Sprintf("sub-pipeline run %s completed", child.ID))
		return
	case RunEscalated, RunFailed, RunCancelled:
		why := fmt.Sprintf("sub-pipeline run %s %s at %s", child.ID, child.Status, child.Stage)
		if child.Message != "" {
			why += ": " + child.Message
		}
		_, bsr.Verdict = rejectingStage(child)
		bsr.Outputs = childOutputs(child)
		if child.Status == RunEscalated {
			// Its escalation fails its branch; the join decides for the parent.
			e.finish(child, RunCancelled, TargetCancelled, fmt.Sprintf("its escalation fails branch %q of run %s (the join decides)", b.ID, run.ID))
		}
		e.leaveBranch(run, b, StageFailed, why)
		return
	}
	bsr.Status = StageWaiting
	bsr.Message = fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	who := "the sub-pipeline " + b.Pipeline
	if csr := child.Stages[child.Stage]; csr != nil {
		for _, r := range csr.Results {
			if !r.Optional && r.Status != GatePass && r.Who != "" {
				who = r.Who
				break
			}
		}
	}
	bsr.Results = []GateResult{{Check: "sub-pipeline", Status: GatePending, Message: bsr.Message, Who: who}}
}

// rejectingStage returns the stage a child that did not complete ended at, and its
// verdict, when that verdict rejects (reject, revise, followup); else "", "". A child
// ended by the escalation it handed to its parent is judged by the stage it escalated at.
func rejectingStage(child *Run) (stage, verdict string) {
	if child.Status == RunCompleted {
		return "", ""
	}
	if sr := child.Stages[child.Stage]; sr != nil && rejects(sr.Verdict) {
		return child.Stage, sr.Verdict
	}
	return "", ""
}
