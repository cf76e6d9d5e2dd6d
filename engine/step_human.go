package engine

import (
	"fmt"
	"sort"
	"strings"
	"time"

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

// Suffixes of the effect keys of a human stage (<run>/<stage>/<attempt>/<suffix>).
const (
	noticeOnEnter  = "on_enter"
	noticeRequest  = "request_reviewers"
	noticeReminder = "reminder-" // + the reminder's number
)

func humanKey(run *Run, stage *lang.Stage, attempt int, suffix string) string {
	return fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, attempt, suffix)
}

// human evaluates human stage of run once and reports whether the run moved.
func (e *eval) human(p *lang.Pipeline, run *Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	who, need, notes := e.humanCount(run, stage, sr)
	if len(who) >= need {
		e.leave(run, stage, StagePassed, stage.OnComplete, humanDone(stage, who))
		return true
	}
	sr.Status = StageWaiting
	run.Status = RunWaiting
	sr.Results = e.humanResults(run, stage, sr, who, need, notes)
	if e.settling && e.refused[run.ID] {
		return false
	}
	var effects []Effect
	pr := e.facts.PR
	done := func(key string) bool { return contains(run.Applied, key) || contains(pr.Posted, key) }
	if stage.OnEnter != nil {
		if key := humanKey(run, stage, sr.Attempt, noticeOnEnter); !done(key) {
			effects = append(effects, Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: EffectComment, Number: pr.Number,
				Body: e.render(stage.OnEnter, run)})
		}
	}
	if stage.AutoAssign {
		if key := humanKey(run, stage, sr.Attempt, noticeRequest); !contains(run.Applied, key) {
			users, teams := e.reviewersOf(stage)
			if len(users)+len(teams) == 0 {
				run.Applied = append(run.Applied, key)
				e.logf("run %s: %s: auto_assign: no one to request a review from (the group names no one but the author, or no group)", run.ID, stage.ID)
			} else {
				effects = append(effects, Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: EffectRequestReviewers, Number: pr.Number,
					Reviewers: users, Teams: teams})
			}
		}
	}
	for i := range effects {
		if effects[i].Kind.WriteAhead() {
			e.intend(run, sr, &effects[i])
		}
	}
	e.effects = append(e.effects, effects...)
	return false
}

func init() {
	deadlineArmers = append(deadlineArmers, armReminder)
	deadlineHandlers[DeadlineReminder] = (*eval).remind
}

// armReminder arms the first reminder of a human stage with `notify.reminder`.
func armReminder(stage *lang.Stage, sr *StageRun, now time.Time) {
	if stage.Type == lang.StageHuman && stage.Reminder != nil && stage.Reminder.Interval > 0 {
		sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineReminder, At: now.Add(stage.Reminder.Interval)})
	}
}

// remind posts reminder d.N+1 of a human stage that still waits, and arms the next one
// while max_reminders allows. The run does not move.
func (e *eval) remind(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool {
	r := stage.Reminder
	sr := run.Stages[stage.ID]
	if r == nil || stage.Type != lang.StageHuman || r.MaxReminders > 0 && d.N >= r.MaxReminders {
		return false
	}
	if who, need, _ := e.humanCount(run, stage, sr); len(who) >= need {
		return false // the stage holds: it moves on when evaluated, and reminds no one
	}
	n := d.N + 1
	if r.MaxReminders == 0 || n < r.MaxReminders {
		next := d.At.Add(r.Interval)
		for !next.After(e.now) {
			next = next.Add(r.Interval)
		}
		sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineReminder, At: next, N: n})
	}
	msg := fmt.Sprintf("Reminder: stage %q still waits for %s.", stage.ID, e.waitsFor(stage, 0))
	if r.Message != nil {
		msg = e.render(r.Message, run)
	}
	if mention := e.groupMentions(stage); mention != "" {
		msg = mention + " " + msg
	}
	eff := Effect{Key: humanKey(run, stage, sr.Attempt, fmt.Sprintf("%s%d", noticeReminder, n)), Run: run.ID, Stage: stage.ID,
		Kind: EffectComment, Number: e.facts.PR.Number, Body: msg}
	e.intend(run, sr, &eff)
	e.effects = append(e.effects, eff)
	return false
}

// groupMentions is "@user @org/team" for the stage's group (the author left out), or "".
func (e *eval) groupMentions(stage *lang.Stage) string {
	g := e.cfg.Group(stage.From)
	if g == nil {
		return ""
	}
	var out []string
	for _, u := range g.Users {
		if !strings.EqualFold(u, e.facts.PR.Author) {
			out = append(out, "@"+u)
		}
	}
	for _, t := range g.Teams {
		out = append(out, "@"+t)
	}
	return strings.Join(out, " ")
}

// reviewersOf returns whom auto_assign asks for a review: the group's users but the PR's
// author and the action itself, and its teams that belong to the repository's owner
// (GitHub requests reviews only from teams of the repository's organization), by slug.
func (e *eval) reviewersOf(stage *lang.Stage) (users, teams []string) {
	g := e.cfg.Group(stage.From)
	if g == nil {
		return nil, nil
	}
	owner, _, _ := strings.Cut(e.facts.Repo, "/")
	for _, u := range g.Users {
		if !strings.EqualFold(u, e.facts.PR.Author) && !SameIdentity(u, e.facts.Viewer) {
			users = append(users, u)
		}
	}
	for _, t := range g.Teams {
		if org, slug, ok := strings.Cut(t, "/"); ok && strings.EqualFold(org, owner) {
			teams = append(teams, slug)
		}
	}
	return users, teams
}

// waitsFor says what the stage waits for, with count n (0: the stage's count).
func (e *eval) waitsFor(stage *lang.Stage, n int) string {
	if n == 0 {
		n = max(stage.Count, 1)
	}
	switch stage.WaitFor {
	case lang.WaitApproval:
		return fmt.Sprintf("%d %s on the current head", n, plural(n, "approval", "approvals"))
	case lang.WaitComment:
		what := plural(n, "comment", "comments")
		if stage.Pattern != "" {
			what += " matching " + stage.Pattern
		}
		return fmt.Sprintf("%d %s", n, what)
	case lang.WaitLabel:
		return "the label " + stage.WaitLabel
	case lang.WaitDismiss:
		return "the blocking review to be dismissed"
	}
	return stage.WaitFor
}

// whoCan says who can give what the stage waits for.
func (e *eval) whoCan(stage *lang.Stage) string {
	if (stage.WaitFor == lang.WaitLabel || stage.WaitFor == lang.WaitDismiss) && stage.From == "" {
		return "someone with write access"
	}
	g := e.cfg.Group(stage.From)
	if g == nil {
		return "someone with write access (not the author)"
	}
	var names []string
	names = append(names, g.Users...)
	for _, t := range g.Teams {
		names = append(names, "team "+t)
	}
	return fmt.Sprintf("group %s (%s; not the author)", g.Name, strings.Join(names, ", "))
}

func (e *eval) humanResults(run *Run, stage *lang.Stage, sr *StageRun, who []string, need int, notes []string) []GateResult {
	msg := fmt.Sprintf("waits for %s; has %d", e.waitsFor(stage, need), len(who))
	if len(who) > 0 {
		msg += " (" + strings.Join(who, ", ") + ")"
	}
	if len(notes) > 0 {
		sort.Strings(notes)
		msg += "; " + strings.Join(notes, "; ")
	}
	out := []GateResult{{Check: "wait_for " + stage.WaitFor, Status: GatePending, Message: msg, Who: e.whoCan(stage)}}
	if stage.OnEnter != nil {
		out = append(out, GateResult{Check: "on_enter", Status: GatePass, Message: e.render(stage.OnEnter, run)})
	}
	if r := stage.Reminder; r != nil {
		m := fmt.Sprintf("%d sent", sr.Reminders)
		if r.MaxReminders > 0 {
			m = fmt.Sprintf("%d of %d sent", sr.Reminders, r.MaxReminders)
		}
		m += " (every " + FormatDuration(r.Interval) + ")"
		for _, d := range sr.Deadlines {
			if d.Kind == DeadlineReminder {
				m += "; next at or after " + d.At.UTC().Format("2006-01-02 15:04 UTC")
			}
		}
		out = append(out, GateResult{Check: "reminders", Status: GatePass, Message: m})
	}
	return out
}

func humanDone(stage *lang.Stage, who []string) string {
	switch stage.WaitFor {
	case lang.WaitApproval:
		return "approved by " + strings.Join(who, ", ")
	case lang.WaitComment:
		return "commented by " + strings.Join(who, ", ")
	}
	return strings.Join(who, ", ")
}

// render renders a message template for run, over the run's env (see env) where the
// run's context lacks them, `context.pr_number`, `head_branch`, `base_branch`, `author` and
// `pr_title` are the pull request's. A template that does not render is shown as written,
// with why in the log.
func (e *eval) render(t *lang.Template, run *Run) string {
	pr := e.facts.PR
	var env lang.Env
	if p := e.cfg.PipelineFor(run); p != nil {
		env = e.env(p, run)
	} else {
		env = lang.Env{"github": FactsEnv(e.facts), "run": map[string]any{"id": run.ID, "pipeline": run.Pipeline, "stage": run.Stage}}
	}
	ctx := map[string]any{"pr_number": pr.Number, "head_branch": pr.HeadRef, "base_branch": pr.BaseRef, "author": pr.Author, "pr_title": pr.Title}
	if have, ok := env["context"].(map[string]any); ok {
		for k, v := range have {
			ctx[k] = v
		}
	}
	env["context"] = ctx
	s, err := renderMessage(t, env) // step_actions.go: what it fills in is inert
	if err != nil {
		e.logf("run %s: the message at %s does not render: %v; posted as written", run.ID, t.Pos, err)
		s = inertMarkers(t.Src)
	}
	return s
}

// inertMarkers keeps text that may hold what others wrote (a PR's title) from carrying an
// HTML comment into the action's own comment, where a forged state or effect marker would
// be read as the action's word: "<!--" is written "&lt;!--".
func inertMarkers(s string) string {
	return strings.ReplaceAll(s, "<!--", "&lt;!--")
}

// settleStageEffect records outcome o of an effect of a human stage (its on_enter message,
// a reminder, its request for reviews), and reports whether o was one.
func (e *eval) settleStageEffect(o Outcome) bool {
	run, stage, sr, suffix := e.findStageEffect(o.Key)
	if run == nil {
		return false
	}
	run.Intents = dropIntent(run.Intents, o.Key)
	e.stageEffectDone(run, stage, sr, suffix, o)
	return true
}

func (e *eval) stageEffectDone(run *Run, stage *lang.Stage, sr *StageRun, suffix string, o Outcome) {
	switch {
	case o.Err == "":
	case suffix == noticeRequest || o.Permanent:
		// Not tried again: the stage does not depend on it.
		e.logf("run %s: %s: %s failed for good: %s", run.ID, stage.ID, suffix, o.Err)
	default:
		if e.refused == nil {
			e.refused = map[string]bool{}
		}
		e.refused[run.ID] = true
		sr.Message = o.Err + "; trying again on the next event"
		e.logf("run %s: %s: %s: %s", run.ID, stage.ID, suffix, sr.Message)
		return
	}
	run.Applied = appendOnce(run.Applied, o.Key)
	if n, ok := strings.CutPrefix(suffix, noticeReminder); ok {
		var k int
		fmt.Sscanf(n, "%d", &k)
		if k > sr.Reminders {
			sr.Reminders = k
		}
	}
}

// findStageEffect finds the live human stage whose current attempt key belongs to.
func (e *eval) findStageEffect(key string) (*Run, *lang.Stage, *StageRun, string) {
	for _, run := range e.st.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		sr := run.Stages[run.Stage]
		if stage == nil || stage.Type != lang.StageHuman || sr == nil {
			continue
		}
		if suffix, ok := strings.CutPrefix(key, fmt.Sprintf("%s/%s/%d/", run.ID, stage.ID, sr.Attempt)); ok {
			return run, stage, sr, suffix
		}
	}
	return nil, nil, nil, ""
}

// reconcileStageEffect settles an intent of a human stage's comment found in the state,
// and reports whether it was one: the comment exists → done; else it is in flight until
// its invocation surely ended, and then asked for again if the stage still wants it.
func (e *eval) reconcileStageEffect(run *Run, it Intent) bool {
	r, stage, sr, suffix := e.findStageEffect(it.Key)
	if r != run {
		return false
	}
	if o, ok := e.outcome(it.Key); ok {
		run.Intents = dropIntent(run.Intents, it.Key)
		e.stageEffectDone(run, stage, sr, suffix, o)
		return true
	}
	if e.performed(it) != "" {
		run.Intents = dropIntent(run.Intents, it.Key)
		e.stageEffectDone(run, stage, sr, suffix, Outcome{Key: it.Key})
		return true
	}
	if e.now.Before(it.inFlightUntil()) {
		e.logf("run %s: %s asked for at %s is in flight", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		return true
	}
	e.unknown[it.Key] = it
	run.Intents = dropIntent(run.Intents, it.Key)
	e.logf("run %s: intent %s: its outcome is unknown and the invocation that asked for it has ended; asked for again if still due", run.ID, it.Key)
	return true
}

// FormatDuration writes d as the language does: whole days as "2d", else Go's form
// without zero units ("1h30m", "45m").
func FormatDuration(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
