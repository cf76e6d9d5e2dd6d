// Package react is what the evaluator does to live runs when an event arrives: the
// reactions of a pipeline's on_events (cancel, notify, invalidate_and_restart, wake_agent),
// the level-triggered re-check of a push whose event was lost, the restart a reaction
// deferred while its run was escalated, and the settling of an agent's notification whose
// outcome stayed unknown.
//
// The kernel calls Level once per event before chat-ops, and Run for each open run of a
// known pipeline; it sees the reactions through those entry points only. What the reactions
// need of the kernel is Kernel: they record on the run what they reacted to (Run.Applied),
// and mark the stages they invalidate stale, but every move of a run goes through it.
package react

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// World is what the evaluation reads as the reactions run: the config, the facts (of the
// subject, or of the pull request a run is looked at through), the time, the runs.
type World struct {
	Cfg   *lang.Config
	Facts *model.Facts
	Now   time.Time
	// Issue says the subject is an issue: the facts' pull request is then not the subject.
	Issue bool
	Runs  []*model.Run
}

// Kernel is what the reactions need of the evaluator.
type Kernel interface {
	// World is what the evaluation reads now.
	World() World
	Logf(format string, args ...any)
	// Enter moves run from the stage it is at to a new attempt of stage target; why is
	// for history.
	Enter(run *model.Run, target, why string)
	// Leave ends stage s of run with status and follows target.
	Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string)
	// Finish ends run with status; target is the pseudo-stage history shows.
	Finish(run *model.Run, status model.RunStatus, target, why string)
	// Record adds a line to run's history without moving it.
	Record(run *model.Run, why string)
	// Emit asks for an effect.
	Emit(eff model.Effect)
	// Merged says how the pull request came to be merged as run sees it: by run's own
	// merge_pr stage (own, and who merged it), or by a live sub-pipeline's run below it (child).
	Merged(p *lang.Pipeline, run *model.Run) (own *lang.Stage, by string, child bool)
	// TemplateEnv is what the templates of run's actions read; each call gives a new one.
	TemplateEnv(p *lang.Pipeline, run *model.Run) lang.Env
	// PlanNotify plans a notify action of run (an effect with a Kind, none, or why not: err).
	PlanNotify(run *model.Run, eff model.Effect, target, message *lang.Template, env lang.Env) (model.Effect, string)
	// AgentDispatch builds the dispatch, keyed key, that starts agent ag for run's
	// attempt of stage s, as an agent stage would.
	AgentDispatch(p *lang.Pipeline, run *model.Run, s *lang.Stage, ag *lang.Agent, key string) (model.Effect, error)
}

// reaction acts on r, a reaction of run (of pipeline p), for the event of in.
type reaction func(k Kernel, p *lang.Pipeline, run *model.Run, r *lang.EventReaction, in model.Input)

// reactions is the table of on_events actions. An action not in it (reevaluate_gates) does
// nothing of its own: every open run's gates are evaluated on every event.
var reactions = map[string]reaction{
	lang.ReactCancel:               cancel,
	lang.ReactNotify:               notify,
	lang.ReactInvalidateAndRestart: invalidateAndRestart,
	lang.ReactWakeAgent:            wake,
}

// Run applies run's reaction (on_events of pipeline p) to the event of in.
func Run(k Kernel, p *lang.Pipeline, run *model.Run, in model.Input) {
	if r := p.Reaction(in.Event); r != nil {
		if act := reactions[r.Action]; act != nil {
			act(k, p, run, r, in)
		}
	}
}

// cancel ends run on its event, unless the event is the pull request's merge by the run
// itself or by its sub-pipeline's run.
func cancel(k Kernel, p *lang.Pipeline, run *model.Run, _ *lang.EventReaction, in model.Input) {
	own, by, child := k.Merged(p, run)
	switch {
	case own != nil:
		// The closed event of the run's own merge, whose state was not saved: the
		// merge stage ends the run (completed) when the run is advanced.
		if own.ID != run.Stage {
			k.Enter(run, own.ID, fmt.Sprintf("the pull request was merged by %s; the state after the merge was not saved", by))
		}
	case child:
		k.Logf("run %s: the pull request was merged by its sub-pipeline's run; not cancelled", run.ID)
	default:
		k.Finish(run, model.RunCancelled, TargetCancelled, "cancelled on "+in.Event)
	}
}

// TargetCancelled is the pseudo-target history shows when a run is cancelled.
const TargetCancelled = lang.TargetCancelled
