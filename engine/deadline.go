package engine

import (
	"sort"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Deadlines are the absolute times a run's current stage waits for: its timeout, the end
// of a delay, a delay's next poll, a human stage's next reminder. They are armed when the
// stage is entered (the armers below), kept in StageRun.Deadlines, and handled by any
// evaluation whose now is at or past them (the handlers below) — an event, or the sweep
// that reads Run.NextDeadline from the state branch's index. A deadline leaves the list
// when it is acted on, in the same saved state as what it did, so each is acted on once.

// Deadline kinds.
const (
	DeadlineTimeout  = "timeout"  // the stage's `timeout` (on_timeout applies)
	DeadlineDelay    = "delay"    // a delay stage's `duration` ends
	DeadlinePoll     = "poll"     // a delay stage's next `poll` check
	DeadlineReminder = "reminder" // a human stage's next reminder
)

// Deadline is one absolute time the current stage of a run waits for.
type Deadline struct {
	Kind string    `json:"kind"`
	At   time.Time `json:"at"`
	// N counts the deadlines of this kind acted on before it in this stage entry: the
	// extensions of a timeout, the polls, the reminders sent.
	N int `json:"n,omitempty"`
	// Branch is the branch of a parallel stage a DeadlineBranch is the timeout of.
	Branch string `json:"branch,omitempty"`
}

// deadlineArmer adds the deadlines of stage to sr, which was just entered at now.
type deadlineArmer func(stage *lang.Stage, sr *StageRun, now time.Time)

// deadlineHandler acts on deadline d of run's current stage, which is due. It reports
// whether the run moved (another stage, or a new status); a handler that only acted
// (a reminder, an extension) returns false, and the stage is evaluated as usual.
type deadlineHandler func(e *eval, p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool

// deadlineArmers run in order on every stage entry; deadlineHandlers by kind. Stage kinds
// with deadlines of their own register here (an init of their file).
var (
	deadlineArmers   = []deadlineArmer{armTimeout, armDelay}
	deadlineHandlers = map[string]deadlineHandler{
		DeadlineTimeout: (*eval).timedOut,
		DeadlineDelay:   (*eval).delayEnded,
		DeadlinePoll:    (*eval).pollDue,
	}
)

// NextDeadline is the earliest deadline of the run's current stage; zero when the run
// is final or escalated, or its stage waits for no time.
func (r *Run) NextDeadline() time.Time {
	if r.Status.Final() || r.Status == RunEscalated {
		return time.Time{}
	}
	sr := r.Stages[r.Stage]
	if sr == nil {
		return time.Time{}
	}
	var next time.Time
	for _, d := range sr.Deadlines {
		if next.IsZero() || d.At.Before(next) {
			next = d.At
		}
	}
	return next
}

// NextDeadline is the earliest deadline of the state's runs; zero when none has one.
func (st *State) NextDeadline() time.Time {
	var next time.Time
	for _, r := range st.Runs {
		if at := r.NextDeadline(); !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return next
}

// arm sets the deadlines of the stage run has just entered, and drops those of the
// stages it left.
func (e *eval) arm(run *Run) {
	for id, sr := range run.Stages {
		if id != run.Stage {
			sr.Deadlines = nil
		}
	}
	sr := run.Stages[run.Stage]
	sr.Deadlines = nil
	p := e.cfg.PipelineFor(run)
	if p == nil {
		return
	}
	stage := p.Stage(run.Stage)
	if stage == nil {
		return
	}
	for _, a := range deadlineArmers {
		a(stage, sr, e.now)
	}
}

func armTimeout(stage *lang.Stage, sr *StageRun, now time.Time) {
	if stage.Timeout > 0 {
		sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineTimeout, At: now.Add(stage.Timeout)})
	}
}

// due acts on the deadlines of run's current stage that now has reached, oldest first,
// each once. stop says the run moved, and whether it did is moved (advance's result).
func (e *eval) due(p *lang.Pipeline, run *Run, stage *lang.Stage) (moved, stop bool) {
	sr := run.Stages[stage.ID]
	if sr == nil {
		return false, false
	}
	for {
		sort.SliceStable(sr.Deadlines, func(i, j int) bool { return sr.Deadlines[i].At.Before(sr.Deadlines[j].At) })
		if len(sr.Deadlines) == 0 || sr.Deadlines[0].At.After(e.now) {
			return false, false
		}
		d := sr.Deadlines[0]
		sr.Deadlines = sr.Deadlines[1:]
		if len(sr.Deadlines) == 0 {
			sr.Deadlines = nil
		}
		h := deadlineHandlers[d.Kind]
		if h == nil {
			e.finish(run, RunFailed, lang.TargetFail, "not supported yet: deadline "+d.Kind+" of stage "+stage.ID)
			return false, true
		}
		at, attempt := run.Stage, sr.Attempt
		if h(e, p, run, stage, d) || run.Status.Final() || run.Status == RunEscalated || run.Stage != at || sr.Attempt != attempt {
			return !run.Status.Final() && run.Status != RunEscalated, true
		}
	}
}

// dropDeadlines forgets the deadlines of a run that can no longer act on them (its
// pipeline left the config), so that the sweep does not come back for it every time.
func (e *eval) dropDeadlines(run *Run) {
	if sr := run.Stages[run.Stage]; sr != nil && len(sr.Deadlines) > 0 {
		sr.Deadlines = nil
		e.logf("run %s: its deadlines are dropped: nothing can act on them without its pipeline", run.ID)
	}
}

// dropBranchDeadline drops the deadline of branch from ds.
func dropBranchDeadline(ds []Deadline, branch string) []Deadline {
	var out []Deadline
	for _, d := range ds {
		if d.Kind != DeadlineBranch || d.Branch != branch {
			out = append(out, d)
		}
	}
	return out
}

// dropKind drops the deadlines of that kind from ds.
func dropKind(ds []Deadline, kind string) []Deadline {
	var out []Deadline
	for _, d := range ds {
		if d.Kind != kind {
			out = append(out, d)
		}
	}
	return out
}
