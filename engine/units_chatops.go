package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/internal/chatops"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/manual"
	"github.com/org/pipeline-action/engine/internal/trigger"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// chatopsKernel is the evaluator as chat-ops (package chatops) see it.
type chatopsKernel struct{ e *eval }

func (k chatopsKernel) World() chatops.World {
	e := k.e
	return chatops.World{Cfg: e.Cfg, St: e.St, Facts: e.Facts, Now: e.Now, Issue: e.Issue != nil}
}

func (k chatopsKernel) Logf(format string, args ...any) { k.e.Logf(format, args...) }

func (k chatopsKernel) Emit(eff model.Effect) { k.e.Effects = append(k.e.Effects, eff) }

func (k chatopsKernel) Rules() *authority.Rules { return k.e.Rules() }

func (k chatopsKernel) HeadOf(run *model.Run) string { return k.e.HeadOf(run) }

func (k chatopsKernel) PassesOver(run *model.Run, verb string) bool {
	return k.e.commandSkips(run, verb)
}

func (k chatopsKernel) Startable(name string) (*lang.Pipeline, string) {
	return manual.Refused(k.e.Eval, name)
}

func (k chatopsKernel) Dispatchable(in model.Input) (*lang.Pipeline, string) {
	return manual.DispatchRefused(k.e.Eval, in)
}

func (k chatopsKernel) Start(p *lang.Pipeline, in model.Input, why string) string {
	defer k.as(in.Actor)()
	return k.e.start(p, in, trigger.StartByHand, time.Time{}, why)
}

// as makes who the actor history records until the function it returns is called.
func (k chatopsKernel) as(who string) func() {
	was := k.e.Actor
	k.e.Actor = who
	return func() { k.e.Actor = was }
}

// Move does to run what a command asks: the moves the kernel makes for a person.
func (k chatopsKernel) Move(run *model.Run, m chatops.Move) {
	e := k.e
	defer k.as(m.Actor)()
	p := e.Cfg.PipelineFor(run)
	stage := p.Stage(run.Stage)
	switch m.Kind {
	case chatops.Approve:
		sr := run.Stages[run.Stage]
		sr.Approvals = append(sr.Approvals, *m.Held)
	case chatops.Retry:
		if e.restartDeferred(p, run, m.Why) {
			return
		}
		e.enter(run, run.Stage, run.Stage, m.Why)
		if r := resuming(stage); r != nil { // keeps what succeeded
			e.apply(p, run, stage, r.Retry(e.context(p, run), run, stage))
		}
	case chatops.Skip:
		if m.Held != nil {
			run.Stages[stage.ID].Skipped = m.Held
		}
		e.leave(run, stage, model.StageSkipped, m.To, m.Why)
	case chatops.Cancel:
		e.finish(run, model.RunCancelled, TargetCancelled, m.Why)
	case chatops.Unblock:
		if e.restartDeferred(p, run, m.Why) {
			return
		}
		// The same attempt goes on: what it was given (approvals, reminders) still counts.
		run.Status = model.RunRunning
		if sr := run.Stages[run.Stage]; sr != nil && !core.IsDone(sr.Status) {
			sr.Status = model.StageWaiting
		}
		run.Message = ""
		e.Record(run, run.Stage, run.Stage, m.Why)
		if r := resuming(stage); r != nil {
			r.Unblock(e.context(p, run), run, stage)
		}
	case chatops.Enter:
		e.enter(run, run.Stage, m.To, m.Why)
	case chatops.Restart:
		run.VerifiedSHA, run.VerifiedBy = "", ""
		e.enter(run, run.Stage, m.To, m.Why)
	}
}

// commentRefused says why this event, a comment, may not start p, whose trigger is a
// comment, or "": its author needs the chat-ops permission today (package manual).
func commentRefused(e *core.Eval, p *lang.Pipeline, in model.Input, onEvent bool) string {
	if !onEvent || p.Trigger.Event != "issue_comment.created" {
		return ""
	}
	return manual.CommentRefused(e, in)
}
