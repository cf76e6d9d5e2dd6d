package settle

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// A dispatch whose outcome is unknown — its invocation ended without recording one, or
// GitHub did not answer it (Outcome.Unknown) — may have started the agent. It is never
// sent again blindly: what GitHub shows of it is looked at first, by its kind, and it is
// sent again only when that shows it certainly absent.
//
//   - comment: the comment carrying its marker (Facts.PR.Posted);
//   - label: the label on the subject (Facts.PR.Labels);
//   - workflow: the workflow's runs started by a workflow_dispatch since it was asked
//     for, whose display title (the agent workflow's run-name) names its run, stage and
//     attempt; a run created since whose title names no attempt may be it, so it is then
//     not certainly absent (Facts.Dispatches, which the caller reads);
//   - assign: the assignee on the subject (Facts.Dispatches);
//   - repository_dispatch: it leaves nothing to look at, so it is taken as performed.
//
// What shows it performed settles it at once; otherwise nothing is decided while it may
// still be in flight (Intent.Until). After that, absent → asked for again (Try + 1);
// nothing to tell → taken as performed, never sent twice, and the status says so; a
// look-up that failed → the run keeps waiting and the next event looks again, until
// MaxIntentLease after the dispatch, when it is taken as performed too.

// reconcileDispatch settles the dispatch intent of an agent stage found in the state.
func reconcileDispatch(k Kernel, run *model.Run, stage *lang.Stage, it model.Intent) {
	sr := run.Stages[it.Stage]
	if !run.At(it.Stage) || sr == nil || sr.Attempt != it.Attempt {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		k.Logf("run %s: intent %s: the run has moved on from it; dropped", run.ID, it.Key)
		return
	}
	if o, ok := k.Intents().Outcome(it.Key); ok {
		settleDispatch(k, run, stage, o)
		return
	}
	at := it.At.UTC().Format(time.RFC3339)
	seen, runID, why := k.Trace(run, stage, it)
	switch {
	case seen == agent.TraceSeen:
		k.Logf("run %s: %s asked for at %s was performed: %s", run.ID, it.Key, at, why)
		settleDispatch(k, run, stage, model.Outcome{Key: it.Key, WorkflowRun: runID})
		return
	case k.Now().Before(it.InFlightUntil()):
		inFlight(k, run, it)
		return
	case seen == agent.TraceAbsent:
		run.Intents = model.DropIntent(run.Intents, it.Key)
		k.Intents().Unknown[it.Key] = it
		k.Logf("run %s: %s asked for at %s was not performed (%s), and the invocation that asked for it has ended", run.ID, it.Key, at, why)
		return
	case seen == agent.TraceUnread && k.Now().Before(it.At.Add(model.MaxIntentLease)):
		// Never sent again on a failed look-up: it may have been performed.
		sr.Message = fmt.Sprintf("agent %s: whether the dispatch of %s reached GitHub is not known yet (%s); looking again on the next event, and not sending it again meanwhile",
			stage.Agent, it.At.UTC().Format("2006-01-02 15:04 UTC"), why)
		inFlight(k, run, it)
		k.Logf("run %s: %s", run.ID, sr.Message)
		return
	}
	run.Intents = model.DropIntent(run.Intents, it.Key)
	run.Applied = model.AppendOnce(run.Applied, it.Key)
	sr.Message = fmt.Sprintf("agent %s: whether the dispatch of %s reached GitHub is not known (%s); it is not sent twice: waiting for the report, or `/pipeline retry`",
		stage.Agent, it.At.UTC().Format("2006-01-02 15:04 UTC"), why)
	k.Logf("run %s: %s", run.ID, sr.Message)
}

// settleDispatch records o, the outcome of the dispatch of run's attempt of agent stage s.
func settleDispatch(k Kernel, run *model.Run, s *lang.Stage, o model.Outcome) {
	if o.Err != "" {
		k.NoteRefused(run)
	}
	k.AgentSettled(run, s, o)
}
