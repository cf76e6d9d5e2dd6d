package deadline

import (
	"sort"
	"time"

	"github.com/org/pipeline-action/engine/internal/clockpoll"
	"github.com/org/pipeline-action/engine/internal/httppoll"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kernel is what the table needs of the evaluation it runs in, bound to one pipeline.
type Kernel interface {
	Now() time.Time
	Logf(format string, args ...any)
	// Stage is run's current stage in its pipeline, nil when the pipeline or the stage is
	// gone from the config.
	Stage(run *model.Run) *lang.Stage
	// Own adds the deadlines of stage's type's own to sr, which was just entered.
	Own(stage *lang.Stage, sr *model.StageRun)
	// OwnDue acts on d, due, of stage's type's own kinds, and reports whether the run
	// moved; handled is false when the type has no kind of d's.
	OwnDue(run *model.Run, stage *lang.Stage, d model.Deadline) (moved, handled bool)
	Moves
	Effects
}

// Moves are the kernel's moves of a run a deadline may ask for.
type Moves interface {
	// Leave leaves stage with status and goes to target (a stage id or a lang.Target*).
	Leave(run *model.Run, stage *lang.Stage, status model.StageStatus, target, why string)
	// Finish ends run with status; to is where it went (a lang.Target* or cancelled).
	Finish(run *model.Run, status model.RunStatus, to, why string)
	// Cancel ends run cancelled.
	Cancel(run *model.Run, why string)
	// Escalate stops run to wait for a person.
	Escalate(run *model.Run, why string)
	// AgentError applies the on_error of agent stage to a failure (why), and reports
	// whether the run moved.
	AgentError(run *model.Run, stage *lang.Stage, why string) bool
	// FollowDue acts on a multi-PR run's deadline to read the facts of its pull requests
	// again, and reports whether the run moved.
	FollowDue(run *model.Run, stage *lang.Stage, d model.Deadline) bool
}

// Effects are what the effects of a deadline (on_timeout's label and notification) need.
type Effects interface {
	// PR is the subject of the evaluation.
	PR() *model.PullRequest
	// Emit asks for eff.
	Emit(eff model.Effect)
	// Notify plans eff, the notification of message to target in run's env: the effect
	// to perform, or why none is needed (done), or why it cannot be (err).
	Notify(run *model.Run, eff model.Effect, target, message *lang.Template) (out model.Effect, done, err string)
}

// handler acts on deadline d of run's current stage, which is due. It reports whether
// the run moved (another stage, or a new status); a handler that only acted (a reminder,
// an extension) returns false, and the stage is evaluated as usual.
type handler func(t *Table, k Kernel, run *model.Run, stage *lang.Stage, d model.Deadline) bool

// armers run in order on every stage entry, before the stage type's own; handlers act on
// the deadlines any stage may have, by kind, and a stage type handles those of its own.
var (
	armers   = []func(stage *lang.Stage, sr *model.StageRun, now time.Time){ArmTimeout, httppoll.Arm, clockpoll.Arm}
	handlers = map[string]handler{
		model.DeadlineTimeout:      timedOut,
		model.DeadlineMergeability: (*Table).mergeabilityDue,
		model.DeadlineFollow: func(_ *Table, k Kernel, run *model.Run, stage *lang.Stage, d model.Deadline) bool {
			return k.FollowDue(run, stage, d)
		},
		// A rate limit ended: the stage is evaluated as usual, which tries its effect again.
		model.DeadlineRetry: func(*Table, Kernel, *model.Run, *lang.Stage, model.Deadline) bool { return false },
		clockpoll.Kind: func(_ *Table, k Kernel, run *model.Run, stage *lang.Stage, _ model.Deadline) bool {
			clockpoll.Arm(stage, run.Stages[stage.ID], k.Now()) // the next edge; the gate is evaluated as usual
			return false
		},
		httppoll.Kind: func(_ *Table, k Kernel, run *model.Run, stage *lang.Stage, _ model.Deadline) bool {
			httppoll.Arm(stage, run.Stages[stage.ID], k.Now()) // the next poll; the gate is evaluated as usual
			return false
		},
	}
)

// Table is what one evaluation knows of the deadlines of its runs. Its zero value is ready.
type Table struct {
	// swept holds the runs whose stages, but the current one, were found to hold no
	// deadline in this evaluation.
	swept map[*model.Run]bool
	// polls are the mergeability polls due in this evaluation, by run.
	polls map[string]model.Deadline
}

// ArmTimeout adds the stage's timeout to sr, entered at now.
func ArmTimeout(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	if stage.Timeout > 0 {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineTimeout, At: now.Add(stage.Timeout)})
	}
}

// Arm sets the deadlines of the stage run has just entered, and drops those of the
// stages it left: left, the stage it stood at before. Deadlines are only ever added to
// the current stage, so once every other stage has been swept clear in this evaluation,
// clearing the one left keeps them so, and entering a stage costs the same however many
// stages the run has.
func (t *Table) Arm(k Kernel, run *model.Run, left string) {
	if t.swept[run] {
		if sr := run.Stages[left]; sr != nil && left != run.Stage {
			sr.Deadlines = nil
		}
	} else {
		for id, sr := range run.Stages {
			if id != run.Stage {
				sr.Deadlines = nil
			}
		}
		if t.swept == nil {
			t.swept = map[*model.Run]bool{}
		}
		t.swept[run] = true
	}
	sr := run.Stages[run.Stage]
	sr.Deadlines = nil
	stage := k.Stage(run)
	if stage == nil {
		return
	}
	for _, a := range armers {
		a(stage, sr, k.Now())
	}
	k.Own(stage, sr)
}

// Due acts on the deadlines of run's current stage that now has reached, oldest first,
// each once. stop says the run moved, and whether it did is moved (the step's result).
func (t *Table) Due(k Kernel, run *model.Run, stage *lang.Stage) (moved, stop bool) {
	sr := run.Stages[stage.ID]
	if sr == nil {
		return false, false
	}
	for {
		sort.SliceStable(sr.Deadlines, func(i, j int) bool { return sr.Deadlines[i].At.Before(sr.Deadlines[j].At) })
		if len(sr.Deadlines) == 0 || sr.Deadlines[0].At.After(k.Now()) {
			return false, false
		}
		d := sr.Deadlines[0]
		sr.Deadlines = sr.Deadlines[1:]
		if len(sr.Deadlines) == 0 {
			sr.Deadlines = nil
		}
		at, attempt := run.Stage, sr.Attempt
		var acted bool
		if h := handlers[d.Kind]; h != nil {
			acted = h(t, k, run, stage, d)
		} else if mv, handled := k.OwnDue(run, stage, d); handled {
			acted = mv
		} else {
			k.Finish(run, model.RunFailed, lang.TargetFail, "not supported yet: deadline "+d.Kind+" of stage "+stage.ID)
			return false, true
		}
		if acted || run.Status.Final() || run.Status == model.RunEscalated || run.Stage != at || sr.Attempt != attempt {
			return !run.Status.Final() && run.Status != model.RunEscalated, true
		}
	}
}

// Drop forgets the deadlines of a run that can no longer act on them (its pipeline left
// the config), so that the sweep does not come back for it every time.
func Drop(run *model.Run, logf func(format string, args ...any)) {
	if sr := run.Stages[run.Stage]; sr != nil && len(sr.Deadlines) > 0 {
		sr.Deadlines = nil
		logf("run %s: its deadlines are dropped: nothing can act on them without its pipeline", run.ID)
	}
}
