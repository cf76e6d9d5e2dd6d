package human

import (
	"fmt"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"
	"github.com/org/pipeline-action/engine/stage"
)

// results is the stage's checklist as the status shows it while it waits: who it waits
// for and who it has, its on_enter message, its reminders.
func results(c stage.Context, run *model.Run, s *lang.Stage, sr *model.StageRun, who []string, need int, notes []string) []model.GateResult {
	msg := fmt.Sprintf("waits for %s; has %d", waitsFor(s, need), len(who))
	if len(who) > 0 {
		msg += " (" + strings.Join(who, ", ") + ")"
	}
	if len(notes) > 0 {
		sort.Strings(notes)
		msg += "; " + strings.Join(notes, "; ")
	}
	can := c.Authority().WhoCan(s)
	if how := howToMove(s); how != "" {
		can += ", " + how
	}
	out := []model.GateResult{{Check: "wait_for " + s.WaitFor, Status: model.GatePending, Message: msg, Who: can}}
	if s.OnEnter != nil {
		out = append(out, model.GateResult{Check: "on_enter", Status: model.GatePass, Message: message(c, run, s.OnEnter)})
	}
	if r := s.Reminder; r != nil {
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

// message renders a message template for run over the run's expression environment,
// where the run's context lacks them, `context.pr_number`, `head_branch`, `base_branch`,
// `author` and `pr_title` are the pull request's. A template that does not render is shown
// as written, with why in the log.
func message(c stage.Context, run *model.Run, t *lang.Template) string {
	pr := c.Facts().PR
	env := c.Env()
	ctx := map[string]any{"pr_number": pr.Number, "head_branch": pr.HeadRef, "base_branch": pr.BaseRef, "author": pr.Author, "pr_title": pr.Title}
	if have, ok := env["context"].(map[string]any); ok {
		for k, v := range have {
			ctx[k] = v
		}
	}
	env["context"] = ctx
	s, err := render.Message(t, env) // what it fills in is inert
	if err != nil {
		c.Logf("run %s: the message at %s does not render: %v; posted as written", run.ID, t.Pos, err)
		s = render.InertMarkers(t.Src)
	}
	return s
}
