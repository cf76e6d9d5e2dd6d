package chatops

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"
)

// target is one open run a command acts on: the run of pipeline p at stage (nil when
// the stage is no longer in the pipeline), comment c with its argument, and the line
// history keeps of it (by).
type target struct {
	k     Kernel
	p     *lang.Pipeline
	run   *model.Run
	stage *lang.Stage
	c     model.IssueComment
	arg   string
	by    string
}

// move asks the kernel to do m to the run, for the comment's author.
func (x *target) move(m Move) {
	m.Why, m.Actor = x.by, x.c.Author
	x.k.Move(x.run, m)
}

// to is the stage named by the argument, else def; or why there is none.
func (x *target) to(def string) (string, string) {
	if x.arg == "" {
		return def, ""
	}
	if x.p.Stage(x.arg) == nil {
		return "", fmt.Sprintf("Run %s: pipeline %s has no stage %s; nothing was changed.", x.run.ID, x.p.Name, markdown.OneWord(x.arg))
	}
	return x.arg, ""
}

func (x *target) notInPipeline() string {
	return fmt.Sprintf("Run %s: stage %s is not in the pipeline; use `/pipeline restart`.", x.run.ID, markdown.OneWord(x.run.Stage))
}

// approve records the command at the run's current stage, when that is a human stage
// waiting for approval and the comment's author counts there.
func approve(x *target) string {
	run, stage := x.run, x.stage
	if stage == nil || stage.Type != lang.StageHuman || stage.WaitFor != lang.WaitApproval {
		return fmt.Sprintf("Run %s is not at a human stage waiting for approval; nothing to approve.", run.ID)
	}
	rules := x.k.Rules()
	if !rules.Allowed(run, stage, x.c.Author, false) {
		return fmt.Sprintf("Run %s: @%s's approval does not count for stage %s, which waits for %s.", run.ID, x.c.Author, stage.ID, rules.WhoCan(stage))
	}
	a := x.approval()
	x.move(Move{Kind: Approve, Held: &a})
	x.k.Logf("run %s: %s counts as %s's approval of %s", run.ID, x.by, x.c.Author, model.Short(x.k.HeadOf(run)))
	if run.Status == model.RunEscalated {
		return fmt.Sprintf("Run %s: approval recorded; the run is escalated, and goes on after `/pipeline unblock`.", run.ID)
	}
	return ""
}

// approval is the comment as an action at the run's current human stage: who, on the
// head the run's pull request has now, when GitHub says it was written.
func (x *target) approval() model.Approval {
	at := x.c.CreatedAt
	if at.IsZero() {
		at = x.k.World().Now
	}
	return model.Approval{Login: x.c.Author, SHA: x.k.HeadOf(x.run), At: at, Comment: x.c.ID}
}

func retry(x *target) string {
	if x.stage == nil {
		return x.notInPipeline()
	}
	x.move(Move{Kind: Retry})
	return ""
}

func skip(x *target) string {
	if x.stage == nil {
		return x.notInPipeline()
	}
	m := Move{Kind: Skip, To: doneTarget(x.stage)}
	if x.stage.Type == lang.StageHuman {
		// The merge guard counts the skip as the stage held while it still counts.
		a := x.approval()
		m.Held = &a
	}
	x.move(m)
	return ""
}

func cancel(x *target) string {
	x.move(Move{Kind: Cancel})
	return ""
}

func unblock(x *target) string {
	if x.arg == "" {
		if x.run.Status != model.RunEscalated {
			return fmt.Sprintf("Run %s is not escalated; nothing to unblock.", x.run.ID)
		}
		x.move(Move{Kind: Unblock})
		return ""
	}
	to, bad := x.to(x.run.Stage)
	if bad != "" {
		return bad
	}
	x.move(Move{Kind: Enter, To: to})
	return ""
}

func restart(x *target) string {
	first := ""
	if len(x.p.Stages) > 0 {
		first = x.p.Stages[0].ID
	}
	to, bad := x.to(first)
	if bad != "" || to == "" {
		return bad
	}
	x.move(Move{Kind: Restart, To: to})
	return ""
}

func status(x *target) string { return runStatus(x.run) }

// runStatus is one sentence on where run is.
func runStatus(run *model.Run) string {
	s := fmt.Sprintf("Run %s is %s at %s", run.ID, run.Status, run.Stage)
	if sr := run.Stages[run.Stage]; sr != nil && run.Status != model.RunEscalated {
		for _, r := range sr.Results {
			if r.Status != model.GatePass && !r.Optional {
				s += ": " + markdown.InertInline(r.Check+" "+r.Message) // names of checks, labels, people
				break
			}
		}
	}
	if run.Status == model.RunEscalated && run.Message != "" {
		s += ": " + markdown.InertInline(run.Message)
	}
	return s + "."
}
