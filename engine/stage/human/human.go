// Package human is the human stage: a run waits for people — approvals, comments, a label,
// a dismissed review — from a group (its users and the members of its teams) or from
// anyone with write access; the PR's author and apps never count, and who counts is
// judged on today's facts by the rules of package authority. On entry the stage may post
// its `notify.on_enter` message and request reviews from the group (`auto_assign`); while
// it waits it posts a reminder every `interval`, at most `max_reminders` times. Each of
// these is an effect of the stage's attempt, asked for once: comments are write-ahead, and
// a request for reviews is recorded as done whatever GitHub answers (it is a courtesy; the
// job log says when it failed).
package human

import (
	"fmt"
	"slices"
	"time"

	"github.com/org/pipeline-action/engine/feedback"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Type is the human stage.
type Type struct {
	stage.Nobody
}

// Arm arms the first reminder of a stage with `notify.reminder`.
func (Type) Arm(s *lang.Stage, sr *model.StageRun, now time.Time) {
	if s.Type == lang.StageHuman && s.Reminder != nil && s.Reminder.Interval > 0 {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineReminder, At: now.Add(s.Reminder.Interval)})
	}
}

// Step passes the stage when enough people who count gave what it waits for; otherwise
// the run waits, and the stage asks once per attempt for its on_enter message and its
// request for reviews.
func (Type) Step(c stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	sr := run.Stages[s.ID]
	who, need, notes := c.Authority().HumanCount(run, s, sr)
	if len(who) >= need {
		// What the people said is handed on: stages.<id>.outputs in templates and contexts.
		sr.Outputs = lang.JSONSafe(feedback.HumanOutputs(s, sr, who, c.Facts().PR))
		return stage.Leave(model.StagePassed, s.OnComplete, done(s, who))
	}
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	sr.Results = results(c, run, s, sr, who, need, notes)
	if c.Refused() {
		return stage.Stay()
	}
	effects := enter(c, run, s, sr)
	for i := range effects {
		if effects[i].Kind.WriteAhead() {
			c.Intend(sr, &effects[i])
		}
	}
	for _, eff := range effects {
		c.Emit(eff)
	}
	return stage.Stay()
}

// enter is what the stage asks for while it waits, once per attempt: its on_enter
// message and its request for reviews.
func enter(c stage.Context, run *model.Run, s *lang.Stage, sr *model.StageRun) []model.Effect {
	var effects []model.Effect
	pr := c.Facts().PR
	posted := func(key string) bool { return slices.Contains(run.Applied, key) || slices.Contains(pr.Posted, key) }
	if s.OnEnter != nil {
		if key := Key(run, s, sr.Attempt, NoticeOnEnter); !posted(key) {
			effects = append(effects, model.Effect{Key: key, Run: run.ID, Stage: s.ID, Kind: model.EffectComment, Number: pr.Number,
				Body: message(c, run, s.OnEnter)})
		}
	}
	if s.AutoAssign {
		if key := Key(run, s, sr.Attempt, NoticeRequest); !slices.Contains(run.Applied, key) {
			users, teams := reviewersOf(c, s)
			if len(users)+len(teams) == 0 {
				run.Applied = append(run.Applied, key)
				c.Logf("run %s: %s: auto_assign: no one to request a review from (the group names no one but the author, or no group)", run.ID, s.ID)
			} else {
				effects = append(effects, model.Effect{Key: key, Run: run.ID, Stage: s.ID, Kind: model.EffectRequestReviewers, Number: pr.Number,
					Reviewers: users, Teams: teams})
			}
		}
	}
	return effects
}

// Deadline posts the reminders.
func (Type) Deadline(c stage.Context, run *model.Run, s *lang.Stage, d model.Deadline) (stage.Decision, bool) {
	if d.Kind != model.DeadlineReminder {
		return stage.Stay(), false
	}
	remind(c, run, s, d)
	return stage.Stay(), true
}

// remind posts reminder d.N+1 of a stage that still waits, and arms the next one while
// max_reminders allows. The run does not move.
func remind(c stage.Context, run *model.Run, s *lang.Stage, d model.Deadline) {
	r := s.Reminder
	sr := run.Stages[s.ID]
	if r == nil || s.Type != lang.StageHuman || r.MaxReminders > 0 && d.N >= r.MaxReminders {
		return
	}
	if who, need, _ := c.Authority().HumanCount(run, s, sr); len(who) >= need {
		return // the stage holds: it moves on when evaluated, and reminds no one
	}
	n := d.N + 1
	if r.MaxReminders == 0 || n < r.MaxReminders {
		next := d.At.Add(r.Interval)
		for !next.After(c.Now()) {
			next = next.Add(r.Interval)
		}
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineReminder, At: next, N: n})
	}
	msg := fmt.Sprintf("Reminder: stage %q still waits for %s.", s.ID, waitsFor(s, 0))
	if r.Message != nil {
		msg = message(c, run, r.Message)
	}
	if mention := groupMentions(c, s); mention != "" {
		msg = mention + " " + msg
	}
	eff := model.Effect{Key: Key(run, s, sr.Attempt, fmt.Sprintf("%s%d", NoticeReminder, n)), Run: run.ID, Stage: s.ID,
		Kind: model.EffectComment, Number: c.Facts().PR.Number, Body: msg}
	c.Intend(sr, &eff)
	c.Emit(eff)
}

// Recheck holds the stage for the merge guard when its condition skips it or what people
// gave there counts on today's facts.
func (Type) Recheck(g stage.Guard, s *lang.Stage) stage.Verdict {
	return stage.Judge(g, s, func(s *lang.Stage) bool { return holds(g, s) })
}

// StillHolds: a stage the run passed or skipped holds today when its condition does not
// (the config skips it) or what people gave there counts today.
func (Type) StillHolds(g stage.Guard, s *lang.Stage, sr *model.StageRun) bool {
	if sr.Status != model.StagePassed && sr.Status != model.StageSkipped {
		return true
	}
	if g.Skips(s) {
		return true // its condition does not hold today: the config skips it
	}
	return holds(g, s)
}

func holds(g stage.Guard, s *lang.Stage) bool {
	ok, _ := g.Authority().HumanHolds(g.Run(), s)
	return ok
}
