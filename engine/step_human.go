package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"
	"github.com/org/pipeline-action/engine/stage"

	"github.com/org/pipeline-action/engine/internal/feedback"
	"github.com/org/pipeline-action/engine/internal/guardwalk"
	"github.com/org/pipeline-action/engine/lang"
)

// Human stages: a run waits for people — approvals, comments, a label, a dismissed
// review — from a group (its users and the members of its teams) or from anyone with
// write access; the PR's author and apps never count. On entry the stage may post its
// `notify.on_enter` message and request reviews from the group (`auto_assign`); while it
// waits it posts a reminder every `interval`, at most `max_reminders` times. Each of these
// is an effect of the stage's attempt, asked for once: comments are write-ahead, and a
// request for reviews is recorded as done whatever GitHub answers (it is a courtesy; the
// job log says when it failed).

// human evaluates human stage of run once and reports whether the run moved.
func (e *eval) human(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	who, need, notes := e.Rules().HumanCount(run, stage, sr)
	if len(who) >= need {
		// What the people said is handed on: stages.<id>.outputs in templates and contexts.
		sr.Outputs = lang.JSONSafe(feedback.HumanOutputs(stage, sr, who, e.Facts.PR))
		e.leave(run, stage, model.StagePassed, stage.OnComplete, core.HumanDone(stage, who))
		return true
	}
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	sr.Results = e.humanResults(run, stage, sr, who, need, notes)
	if e.WasRefused(run) {
		return false
	}
	var effects []model.Effect
	pr := e.Facts.PR
	done := func(key string) bool { return slices.Contains(run.Applied, key) || slices.Contains(pr.Posted, key) }
	if stage.OnEnter != nil {
		if key := core.HumanKey(run, stage, sr.Attempt, core.NoticeOnEnter); !done(key) {
			effects = append(effects, model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: model.EffectComment, Number: pr.Number,
				Body: e.render(stage.OnEnter, run)})
		}
	}
	if stage.AutoAssign {
		if key := core.HumanKey(run, stage, sr.Attempt, core.NoticeRequest); !slices.Contains(run.Applied, key) {
			users, teams := e.ReviewersOf(stage)
			if len(users)+len(teams) == 0 {
				run.Applied = append(run.Applied, key)
				e.Logf("run %s: %s: auto_assign: no one to request a review from (the group names no one but the author, or no group)", run.ID, stage.ID)
			} else {
				effects = append(effects, model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: model.EffectRequestReviewers, Number: pr.Number,
					Reviewers: users, Teams: teams})
			}
		}
	}
	for i := range effects {
		if effects[i].Kind.WriteAhead() {
			e.Intend(run, sr, &effects[i])
		}
	}
	e.Effects = append(e.Effects, effects...)
	return false
}

// humanType waits for people: their approvals, reviews or commands, and reminds them.
type humanType struct {
	noBranch
	noAnswers
	nobody
}

func (humanType) arm(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	core.ArmReminder(stage, sr, now)
}

func (humanType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.human(p, run, stage)
}

func (humanType) recheck(g *guardCheck, s *lang.Stage) stage.Verdict {
	return guardwalk.Judge(s, g.Skips, func(s *lang.Stage) bool { ok, _ := g.e.Rules().HumanHolds(g.run, s); return ok })
}

func (humanType) stillHolds(g *guardCheck, s *lang.Stage, sr *model.StageRun) bool {
	if sr.Status != model.StagePassed && sr.Status != model.StageSkipped {
		return true
	}
	if g.Skips(s) {
		return true // its condition does not hold today: the config skips it
	}
	ok, _ := g.e.Rules().HumanHolds(g.run, s)
	return ok
}

func (humanType) deadline(kind string) deadlineHandler {
	if kind == model.DeadlineReminder {
		return (*eval).remind
	}
	return nil
}

// remind posts reminder d.N+1 of a human stage that still waits, and arms the next one
// while max_reminders allows. The run does not move.
func (e *eval) remind(p *lang.Pipeline, run *model.Run, stage *lang.Stage, d model.Deadline) bool {
	r := stage.Reminder
	sr := run.Stages[stage.ID]
	if r == nil || stage.Type != lang.StageHuman || r.MaxReminders > 0 && d.N >= r.MaxReminders {
		return false
	}
	if who, need, _ := e.Rules().HumanCount(run, stage, sr); len(who) >= need {
		return false // the stage holds: it moves on when evaluated, and reminds no one
	}
	n := d.N + 1
	if r.MaxReminders == 0 || n < r.MaxReminders {
		next := d.At.Add(r.Interval)
		for !next.After(e.Now) {
			next = next.Add(r.Interval)
		}
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineReminder, At: next, N: n})
	}
	msg := fmt.Sprintf("Reminder: stage %q still waits for %s.", stage.ID, e.WaitsFor(stage, 0))
	if r.Message != nil {
		msg = e.render(r.Message, run)
	}
	if mention := e.GroupMentions(stage); mention != "" {
		msg = mention + " " + msg
	}
	eff := model.Effect{Key: core.HumanKey(run, stage, sr.Attempt, fmt.Sprintf("%s%d", core.NoticeReminder, n)), Run: run.ID, Stage: stage.ID,
		Kind: model.EffectComment, Number: e.Facts.PR.Number, Body: msg}
	e.Intend(run, sr, &eff)
	e.Effects = append(e.Effects, eff)
	return false
}

func (e *eval) humanResults(run *model.Run, stage *lang.Stage, sr *model.StageRun, who []string, need int, notes []string) []model.GateResult {
	msg := fmt.Sprintf("waits for %s; has %d", e.WaitsFor(stage, need), len(who))
	if len(who) > 0 {
		msg += " (" + strings.Join(who, ", ") + ")"
	}
	if len(notes) > 0 {
		sort.Strings(notes)
		msg += "; " + strings.Join(notes, "; ")
	}
	can := e.Rules().WhoCan(stage)
	if how := core.HowToMove(stage); how != "" {
		can += ", " + how
	}
	out := []model.GateResult{{Check: "wait_for " + stage.WaitFor, Status: model.GatePending, Message: msg, Who: can}}
	if stage.OnEnter != nil {
		out = append(out, model.GateResult{Check: "on_enter", Status: model.GatePass, Message: e.render(stage.OnEnter, run)})
	}
	if r := stage.Reminder; r != nil {
		m := fmt.Sprintf("%d sent", sr.Reminders)
		if r.MaxReminders > 0 {
			m = fmt.Sprintf("%d of %d sent", sr.Reminders, r.MaxReminders)
		}
		m += " (every " + model.FormatDuration(r.Interval) + ")"
		for _, d := range sr.Deadlines {
			if d.Kind == model.DeadlineReminder {
				m += "; next at or after " + d.At.UTC().Format("2006-01-02 15:04 UTC")
			}
		}
		out = append(out, model.GateResult{Check: "reminders", Status: model.GatePass, Message: m})
	}
	return out
}

// render renders a message template for run, over the run's env (see env) where the
// run's context lacks them, `context.pr_number`, `head_branch`, `base_branch`, `author` and
// `pr_title` are the pull request's. A template that does not render is shown as written,
// with why in the log.
func (e *eval) render(t *lang.Template, run *model.Run) string {
	pr := e.Facts.PR
	var env lang.Env
	if p := e.Cfg.PipelineFor(run); p != nil {
		env = e.env(p, run)
	} else {
		env = lang.Env{"github": model.FactsEnv(e.Facts), "run": map[string]any{"id": run.ID, "pipeline": run.Pipeline, "stage": run.Stage}}
	}
	ctx := map[string]any{"pr_number": pr.Number, "head_branch": pr.HeadRef, "base_branch": pr.BaseRef, "author": pr.Author, "pr_title": pr.Title}
	if have, ok := env["context"].(map[string]any); ok {
		for k, v := range have {
			ctx[k] = v
		}
	}
	env["context"] = ctx
	s, err := render.Message(t, env) // what it fills in is inert
	if err != nil {
		e.Logf("run %s: the message at %s does not render: %v; posted as written", run.ID, t.Pos, err)
		s = core.InertMarkers(t.Src)
	}
	return s
}

// settleStageEffect records outcome o of an effect of a human stage (its on_enter message,
// a reminder, its request for reviews), and reports whether o was one.
func (e *eval) settleStageEffect(o model.Outcome) bool {
	run, stage, sr, suffix := e.FindStageEffect(o.Key)
	if run == nil {
		return false
	}
	run.Intents = model.DropIntent(run.Intents, o.Key)
	e.StageEffectDone(run, stage, sr, suffix, o)
	return true
}

// reconcileStageEffect settles an intent of a human stage's comment found in the state,
// and reports whether it was one: the comment exists → done; else it is in flight until
// its invocation surely ended, and then asked for again if the stage still wants it.
func (e *eval) reconcileStageEffect(run *model.Run, it model.Intent) bool {
	r, stage, sr, suffix := e.FindStageEffect(it.Key)
	if r != run {
		return false
	}
	if o, ok := e.Outcome(it.Key); ok {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		e.StageEffectDone(run, stage, sr, suffix, o)
		return true
	}
	if e.Performed(it) != "" {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		e.StageEffectDone(run, stage, sr, suffix, model.Outcome{Key: it.Key})
		return true
	}
	if e.Now.Before(it.InFlightUntil()) {
		e.Logf("run %s: %s asked for at %s is in flight", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		return true
	}
	e.Intents.Unknown[it.Key] = it
	run.Intents = model.DropIntent(run.Intents, it.Key)
	e.Logf("run %s: intent %s: its outcome is unknown and the invocation that asked for it has ended; asked for again if still due", run.ID, it.Key)
	return true
}
