package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/doneby"
	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/internal/runtree"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/action"
	"github.com/org/pipeline-action/engine/stage/parallel"

	"github.com/org/pipeline-action/engine/internal/chatops"
	"github.com/org/pipeline-action/engine/internal/deadline"
	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/internal/react"
	"github.com/org/pipeline-action/engine/internal/settle"
	"github.com/org/pipeline-action/engine/internal/snapshot"
	"github.com/org/pipeline-action/engine/internal/trigger"
	"github.com/org/pipeline-action/engine/lang"
)

// Step evaluates one input against the state of its subject. It is level-triggered:
// whatever the event, every run that is not final is evaluated against facts; the
// event only decides reactions (on_events) and which pipelines start. Step is pure:
// st is not modified.
func Step(cfg *lang.Config, st *model.State, in model.Input, facts *model.Facts, now time.Time) model.Result {
	e := newEval(cfg, st, facts, now, in)
	if e.Facts == nil || e.Facts.PR == nil {
		e.Logf("no pull request facts for %s; nothing to evaluate", in.Event)
		return e.Result(st)
	}
	// Before anything else: what became of the effects asked for earlier.
	settle.Reconcile(settleKernel{e})
	subject.NoteHeads(e.St.Runs, e.NoteHead) // before anything people did is counted
	react.Level(reactKernel{e}, in)          // a push whose event is missing came first
	chatops.Comments(chatopsKernel{e})
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		p := cfg.PipelineFor(run)
		if p == nil {
			e.Logf("run %s: pipeline %q is no longer in the config; left as it is", run.ID, run.Pipeline)
			deadline.Drop(run, e.Logf)
			continue
		}
		react.Run(reactKernel{e}, p, run, in)
	}
	for _, run := range e.St.Runs {
		if p := cfg.PipelineFor(run); p != nil && !run.Status.Final() {
			if why := e.NoLongerMatches(p); why != "" {
				e.finish(run, model.RunCancelled, TargetCancelled, why)
			}
		}
	}
	closedSubject(e) // whatever events were lost
	chatops.Dispatch(chatopsKernel{e}, in)
	e.startTriggered(in)
	if in.Report != nil {
		e.deliver(answer{report: in.Report})
	}
	if in.AgentFailure != nil {
		e.deliver(answer{failure: in.AgentFailure})
	}
	enabled := maps.Clone(e.St.Enabled)
	e.advanceAll()
	if newly := dormant.Newly(e.Cfg, enabled, e.St.Enabled); len(newly) > 0 { // a run enabled them: they may start in this event
		e.startTriggered(in, newly...)
		e.advanceAll()
	}
	subject.NoteHeads(e.St.Runs, e.NoteHead) // a pull request a run came to name in this step
	return e.Result(st)
}

// startTriggered starts the pipelines whose trigger is this event, or whose trigger holds
// since an event that was not seen, unless they already ran for it or are still active.
// With only, it looks at those pipelines alone.
func (e *eval) startTriggered(in model.Input, only ...string) {
	for _, p := range e.Cfg.Pipelines {
		if p.Trigger.Event == "" {
			continue // a sub-pipeline
		}
		if len(only) > 0 && !slices.Contains(only, p.Name) {
			continue
		}
		if !core.Scope(e.Eval).Fits(p) {
			continue
		}
		onEvent := trigger.IsTriggerEvent(p, in) // a labeled trigger's own label, not any
		// enabled: false, and not enabled on the subject
		if !dormant.Enabled(e.St, p) {
			if onEvent {
				e.Logf("pipeline %q: not enabled on this subject; not started", p.Name)
			}
			continue
		}
		if e.Facts.PR.State != model.PROpen && !core.ClosingTrigger(p) {
			// Its work would land on a subject that is done with: an event read late (the
			// pull request was merged since) starts nothing; only a trigger on closing does.
			if onEvent {
				e.Logf("pipeline %q: the subject is %s; not started", p.Name, e.Facts.PR.State)
			}
			continue
		}
		since, level := e.triggerSince(p)
		if !onEvent && (since.IsZero() || !since.After(e.Facts.DefinedAt(p.Name))) {
			// A late start counts only a trigger that began to hold after the pipeline's
			// definition did; within the same second, which came first is not known.
			continue
		}
		if e.Started(p.Name, in.Key) {
			e.Logf("pipeline %q: already started by this event; not started again", p.Name)
			continue
		}
		if level && e.StartedSince(p.Name, since) {
			if onEvent {
				e.Logf("pipeline %q: already started since its trigger last held (%s); not started again", p.Name, since.UTC().Format(time.RFC3339))
			}
			continue
		}
		if active := e.Active(p.Name); active != nil {
			if onEvent {
				e.Logf("pipeline %q: run %s is still active; not started again", p.Name, active.ID)
			}
			continue
		}
		if why := commentRefused(e.Eval, p, in, onEvent); why != "" {
			e.Logf("pipeline %q: %s; not started", p.Name, why)
			continue
		}
		why := "started on " + in.Event
		if !onEvent {
			why = fmt.Sprintf("started late on %s: its trigger %s holds since %s, and that event was not seen",
				in.Event, p.Trigger.Event, since.UTC().Format("2006-01-02 15:04 UTC"))
			if e.St.Enabled[p.Name] {
				why = fmt.Sprintf("started on %s: enabled on this subject, and its trigger %s holds since %s",
					in.Event, p.Trigger.Event, since.UTC().Format("2006-01-02 15:04 UTC"))
			}
		}
		kind := trigger.StartLate
		if onEvent {
			kind = trigger.StartOnEvent
		}
		e.start(p, in, kind, since, why)
	}
}

// TargetCancelled is the pseudo-target history shows when a run is cancelled.
const TargetCancelled = react.TargetCancelled

func newEval(cfg *lang.Config, st *model.State, facts *model.Facts, now time.Time, in model.Input) *eval {
	if facts != nil && (cfg != nil && facts.ContributorsApprove != cfg.Settings.AllowContributors || !facts.Now.Equal(now)) {
		f := *facts // the caller's facts are not changed
		if cfg != nil {
			f.ContributorsApprove = cfg.Settings.AllowContributors
		}
		f.Now = now
		facts = &f
	}
	facts = people.MarkAgents(cfg, facts) // agents are not people
	e := &eval{&core.Eval{Cfg: cfg, St: snapshot.Clone(st), Facts: facts, Now: now, Actor: in.Actor,
		Intents:  settle.Intents{Deadline: in.Deadline, Unknown: map[string]model.Intent{}, Outcomes: in.Outcomes},
		Dispatch: core.DispatchScope{Delivery: in.Key, Nonces: in.Nonces},
		Visits:   core.CopyVisits(in.Visits), DoneBy: in.DoneBy}}
	issueView(e)
	return e
}

// ownMerge returns the merge_pr stage of run that the facts show done: the PR is merged
// and the run stands at that stage, or the action itself merged it and the stage lies
// ahead of the run (a merge whose state was not saved). Nil otherwise.
func (e *eval) ownMerge(p *lang.Pipeline, run *model.Run) *lang.Stage {
	pr := e.RunPR(run)
	if pr == nil || pr.State != model.PRMerged {
		return nil
	}
	if s := p.Stage(run.Stage); s != nil && s.Type == lang.StageAction && s.Action == lang.ActionMergePR {
		return s
	}
	if pr.MergedBy == "" || !model.SameIdentity(pr.MergedBy, e.Facts.Viewer) {
		return nil
	}
	return core.ReachableMerge(p, run.Stage)
}

// triggerSince makes triggers level-triggered: for a trigger that names a state of the
// PR (it is open; it carries its labels; it was reopened, made ready or a draft), it
// returns when that state last began, from the facts, so that a pipeline whose trigger
// event was lost still starts on the next event. level is false for triggers that name
// a happening (a push, a review, an edit), which start only on their own event.
func (e *eval) triggerSince(p *lang.Pipeline) (since time.Time, level bool) {
	since, level = e.TriggerStateSince(p)
	// A PR retargeted to the base its trigger takes meets the trigger anew from then on.
	if b := p.Trigger.BaseBranch; b != "" && !since.IsZero() {
		if at := e.Facts.PR.Last(model.TimelineBaseChanged, b); at.After(since) {
			since = at
		}
	}
	return since, level
}

// start starts a run of p on the subject, unless the subject does not meet p's trigger
// (trigger.Refused: the one check of the trigger's conditions every start of a
// pipeline's run goes through, however it was asked for). It returns why it started none,
// which the job log says (for a late start, only when it is worth saying).
func (e *eval) start(p *lang.Pipeline, in model.Input, kind trigger.StartKind, since time.Time, why string) (refused string) {
	if no, loud := trigger.Refused(e.Eval, p, in, kind); no != "" {
		if kind != trigger.StartLate || loud {
			e.Logf("pipeline %q: %s; not started", p.Name, no)
		}
		return no
	}
	n := e.NextRunNumber(p.Name)
	run := &model.Run{
		ID:         fmt.Sprintf("%s/%d/%d", p.Name, e.Facts.PR.Number, n),
		Pipeline:   p.Name,
		ConfigOID:  e.Cfg.BlobOID,
		Subject:    e.Subject(),
		Status:     model.RunRunning,
		Stages:     map[string]*model.StageRun{},
		TriggerKey: in.Key,
		TriggerAt:  since,
		StartedAt:  e.Now,
		UpdatedAt:  e.Now,
	}
	e.St.Runs = append(e.St.Runs, run)
	if e.St.Subject == "" {
		e.St.Subject = run.Subject
	}
	e.Logf("run %s %s", run.ID, why)
	e.NoteHead(run)
	scope.Start(scopeKernel{e}, p, run, nil)
	if len(p.Stages) == 0 {
		e.finish(run, model.RunCompleted, lang.TargetComplete, "the pipeline has no stages")
		return ""
	}
	e.enter(run, "", p.Stages[0].ID, why)
	return ""
}

// sharedPasses bounds how often one evaluation goes through the runs again because one of
// them set a shared variable an earlier one may wait on.
const sharedPasses = 3

// advanceAll moves every unfinished run as far as the facts allow, lower `priority`
// first (file order among equals). Once a run asks for effects — or, in Settle, has
// just had one refused — the runs after it wait for the next round, so that they see
// what it did: a hold placed by a pipeline that comes first wins over a merge by a later
// one, and a hold that could not be placed holds everything after it. A run that sets a
// shared variable may let an earlier run's gate pass: the runs are gone through again.
func (e *eval) advanceAll() {
	runtree.Reap(treeKernel{e})
	defer runtree.Reap(treeKernel{e})
	for range sharedPasses {
		before, _ := json.Marshal(e.St.Shared)
		if !e.advancePass() {
			return
		}
		if after, _ := json.Marshal(e.St.Shared); bytes.Equal(before, after) {
			return
		}
	}
}

// advancePass goes through the runs once, in order; false when a run stopped the pass.
func (e *eval) advancePass() bool {
	type entry struct {
		run *model.Run
		p   *lang.Pipeline
	}
	rank := map[string]int{}
	for i, p := range e.Cfg.Pipelines {
		rank[p.Name] = i
	}
	var order []entry
	for _, run := range e.St.Runs {
		// Final runs stay in the order only to hold back the runs after one whose
		// effect was just refused.
		// A sub-pipeline's run is advanced by its parent's stage.
		if p := e.Cfg.PipelineFor(run); p != nil && run.Parent == "" && (!run.Status.Final() || e.tree().AnyBelow(e.Settle.Refused, run)) {
			order = append(order, entry{run, p})
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i].p, order[j].p
		if a.Priority != b.Priority {
			return a.Priority < b.Priority // lower first
		}
		return rank[a.Name] < rank[b.Name]
	})
	for i, en := range order {
		if why := doneby.Other(e.DoneBy, en.run, core.ClosingTrigger(en.p), e.Issue != nil, e.Facts.PR.State); why != "" {
			e.finish(en.run, model.RunCancelled, TargetCancelled, why)
			continue
		}
		if e.tree().AnyBelow(e.Settle.Refused, en.run) {
			e.Logf("runs after %s wait: its effect was refused", en.run.ID)
			return false
		}
		// A run whose effect is in flight (see reconcile) waits, and so do the runs after it.
		if it, ok := e.tree().OpenIntentDeep(en.run); ok {
			if rest := len(order) - i - 1; rest > 0 {
				e.Logf("%d %s after %s wait for the outcome of %s", rest, model.Plural(rest, "run", "runs"), en.run.ID, it.Key)
			}
			return false
		}
		before := len(e.Effects)
		e.advanceRun(en.p, en.run)
		if len(e.Effects) > before {
			if rest := len(order) - i - 1; rest > 0 {
				e.Logf("%d %s after %s wait for its effects", rest, model.Plural(rest, "run", "runs"), en.run.ID)
			}
			return false
		}
	}
	return true
}

// advanceRun moves one run until it waits, asks for effects, or ends. What bounds it
// is revisits of a stage within this evaluation (see moveGuard), not the number of stages.
func (e *eval) advanceRun(p *lang.Pipeline, run *model.Run) {
	g := e.NewMoveGuard(p, run)
	defer func() { subject.FollowOthers(core.Scope(e.Eval), p, run, e.Now) }()
	for e.advance(p, run) {
		if run.Status.Final() {
			return
		}
		if why := g.Entered(run); why != "" {
			e.finish(run, model.RunFailed, lang.TargetFail, why)
			return
		}
	}
}

// advance evaluates the current stage of run once and reports whether it moved.
func (e *eval) advance(p *lang.Pipeline, run *model.Run) bool {
	if run.Status.Final() || run.Status == model.RunEscalated {
		return false // an escalated run waits for a person's command
	}
	stage := e.StageOf(p, run.Stage)
	if stage == nil {
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("stage %q is not in pipeline %q", run.Stage, p.Name))
		return false
	}
	t, ok := stageTypes[stage.Type]
	if !ok {
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("not supported yet: stage type %q (stage %q at %s)", stage.Type, stage.ID, stage.Pos.String()))
		return false
	}
	if e.enterCondition(p, run, stage) {
		return true
	}
	if moved, stop := e.Deadlines.Due(deadlineKernel{e: e, p: p}, run, stage); stop {
		return moved
	}
	if moved, done := subject.Stage(subjectKernel{e}, p, run, stage); done {
		return moved
	}
	return t.step(e, p, run, stage)
}

// Moving a run between stages, and the record of it.

// leave closes the current stage with status and follows the transition to target.
func (e *eval) leave(run *model.Run, stage *lang.Stage, status model.StageStatus, target, why string) {
	if e.LeaveBranch(run, stage, status, why) { // the join decides
		return
	}
	run.Stages[stage.ID].Status = status
	switch target {
	case lang.TargetComplete, "":
		e.finish(run, model.RunCompleted, lang.TargetComplete, why)
	case lang.TargetFail:
		e.finish(run, model.RunFailed, lang.TargetFail, why)
	case lang.TargetEscalate:
		e.escalate(run, why)
	case lang.TargetCancel:
		e.finish(run, model.RunCancelled, TargetCancelled, why)
	default:
		e.enter(run, stage.ID, target, why)
	}
}

func (e *eval) enter(run *model.Run, from, to, why string) {
	parallel.Close(e.context(e.Cfg.PipelineFor(run), run), run, why)
	sr := run.Stages[to]
	if sr == nil {
		sr = &model.StageRun{}
		run.Stages[to] = sr
	}
	sr.Attempt++
	sr.Tries = 0
	sr.Status = model.StageWaiting
	sr.EnteredAt = e.Now
	sr.Results = nil
	sr.Message = ""
	sr.Approvals, sr.Reminders = nil, 0 // a new attempt asks anew
	sr.ConditionChecked = false         // and decides its condition anew
	left := run.Stage
	run.Stage = to
	run.Status = model.RunRunning
	e.Deadlines.Arm(deadlineKernel{e: e}, run, left)
	e.Record(run, from, to, why)
}

func (e *eval) finish(run *model.Run, status model.RunStatus, to, why string) {
	parallel.Close(e.context(e.Cfg.PipelineFor(run), run), run, why)
	for _, it := range run.Intents {
		// A final run asks for nothing again; an effect still in flight may yet happen.
		e.Logf("run %s: the outcome of %s asked for at %s is not known; the run ends without it", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
	}
	run.Intents = nil
	if p := e.Cfg.PipelineFor(run); p != nil && status != model.RunCompleted && p.Stage(run.Stage) != nil {
		if eff := action.Abandoned(run, p.Stage(run.Stage), e.Facts.PR); eff != nil {
			e.Logf("run %s: it put the pull request in the merge queue; taking it out", run.ID)
			e.Effects = append(e.Effects, *eff)
		}
	}
	run.Status = status
	if status != model.RunCompleted {
		run.Message = why
	}
	if sr := run.Stages[run.Stage]; sr != nil && status == model.RunCancelled && !core.IsDone(sr.Status) {
		sr.Status = model.StageCancelled
	}
	e.Record(run, run.Stage, to, why)
	e.Logf("run %s %s: %s", run.ID, status, why)
	switch {
	case strings.HasPrefix(why, "not supported yet"):
		// The action cannot run the pipeline; the run did not fail as the pipeline says.
	case status == model.RunCompleted:
		rules.List(rulesKernel{e}, run, model.ListOnComplete)
	case status == model.RunFailed:
		rules.List(rulesKernel{e}, run, model.ListOnError)
	}
}

// escalate stops run for a person, and asks for its pipeline's on_error list: the run
// moves again only on a command (package chatops).
func (e *eval) escalate(run *model.Run, why string) {
	if sr := run.Stages[run.Stage]; sr != nil {
		sr.Deadlines = nil // it waits for a person, not for time
	}
	run.Status = model.RunEscalated
	run.Message = why
	e.Record(run, run.Stage, lang.TargetEscalate, why)
	e.Logf("run %s escalated at %s: %s; it waits for a person (/pipeline retry, skip, unblock, restart or cancel)", run.ID, run.Stage, why)
	rules.List(rulesKernel{e}, run, model.ListOnError)
}
