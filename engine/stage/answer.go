package stage

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Answer is what a Decision carries when it follows an answer to the work a stage sent
// out (an agent's report or review), or the failure of that work.
type Answer struct {
	// Verdict is the verdict the decision follows: a branch of a parallel stage leaves
	// with it for the join; a stage follows its Rule as that verdict's (its context, its
	// iterations counted by verdict), or leaves as Leave says, or — with neither, the
	// stage having no rule for the verdict — fails the run.
	Verdict string
	// Error, when set, is why the stage's work failed: its on_error policy applies (a new
	// attempt while retries remain, then its then).
	Error string
	// Answered is when the answer was given: stages the move enters at the event's time
	// count as entered then when it is later, so that a clock behind GitHub's cannot let
	// the same answer answer them too.
	Answered time.Time
}

// FollowVerdict follows rule, the stage's rule for verdict (on_<verdict>), saying why; a
// nil rule fails the run, unless the stage is a branch, which leaves for the join.
func FollowVerdict(rule *lang.Rule, verdict, why string) Decision {
	return Decision{Rule: rule, RuleKind: "on_" + verdict, Why: why, Answer: Answer{Verdict: verdict}}
}

// LeaveWith leaves the stage with status for target on verdict, saying why.
func LeaveWith(verdict string, status model.StageStatus, target, why string) Decision {
	d := Leave(status, target, why)
	d.Verdict = verdict
	return d
}

// Error applies the stage's on_error policy: its work failed, as why says.
func Error(why string) Decision { return Decision{Answer: Answer{Error: why}} }

// Answers is implemented by a type whose stages send out work that answers back, once
// the kernel has found the run standing at the attempt the answer names.
type Answers interface {
	// Report applies r, a report of the run's attempt of s.
	Report(c Context, run *model.Run, s *lang.Stage, r *model.Report) Decision
	// Failure applies f, the end without a report of the work of the run's attempt of s.
	Failure(c Context, run *model.Run, s *lang.Stage, f *model.AgentFailure) Decision
}
