package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/lang"
)

// Escalation and chat-ops. `escalate` stops a run for a person: the run is `escalated`
// (not final) and moves again only on a command in a comment on its subject:
//
//	/pipeline approve          counts as the commenter's approval for a human stage
//	/pipeline retry            a new attempt of the current stage
//	/pipeline skip             on to the current stage's next stage
//	/pipeline cancel           cancels the run
//	/pipeline unblock [stage]  an escalated run goes on where it stopped (the same attempt), or at stage
//	/pipeline restart [stage]  starts again at stage (default: the first)
//	/pipeline status           replies with where the runs are
//	/pipeline start <pipeline> starts a pipeline on the subject
//	/pipeline enable <pipeline>  lets a pipeline's trigger start it on the subject (internal/dormant)
//	/pipeline disable <pipeline> keeps its trigger from starting it there
//
// Only people with settings.chatops.permission (default write) — and, when
// settings.chatops.from is set, members of one of its groups — may use them; anyone else
// gets a one-line reply saying why, and nothing moves. Commands act on the subject's runs
// that are not finished; a command is acted on once (State.CommandsSeen), and commands
// written before the oldest of those runs started are not acted on at all.

// ChatOpsCommands lists the commands, in the order the help shows them.
var ChatOpsCommands = []string{model.CmdApprove, model.CmdRetry, model.CmdSkip, model.CmdCancel, model.CmdUnblock, model.CmdRestart, model.CmdStatus, model.CmdStart, model.CmdEnable, model.CmdDisable}

// escalate stops run for a person, and asks for its pipeline's on_error list.
func (e *eval) escalate(run *model.Run, why string) {
	if sr := run.Stages[run.Stage]; sr != nil {
		sr.Deadlines = nil // it waits for a person, not for time
	}
	run.Status = model.RunEscalated
	run.Message = why
	e.Record(run, run.Stage, lang.TargetEscalate, why)
	e.Logf("run %s escalated at %s: %s; it waits for a person (/pipeline retry, skip, unblock, restart or cancel)", run.ID, run.Stage, why)
	rules.List(rulesKernel{e}, run, model.ListOnError)
}

// chatops acts on the command comments not acted on yet, oldest first.
func (e *eval) chatops() {
	var live []*model.Run
	for _, r := range e.St.Runs {
		if !r.Status.Final() {
			live = append(live, r)
		}
	}
	if len(live) == 0 && !e.startsWaiting() {
		return // commands act on runs; without any, nothing is recorded either
	}
	var oldest time.Time
	for i, r := range live {
		if i == 0 || r.StartedAt.Before(oldest) {
			oldest = r.StartedAt
		}
	}
	comments := append([]model.IssueComment(nil), e.Facts.PR.Comments...)
	sort.SliceStable(comments, func(i, j int) bool { return comments[i].ID < comments[j].ID })
	for _, c := range comments {
		if c.ID <= e.St.CommandsSeen || c.Viewer || model.SameIdentity(c.Author, e.Facts.Viewer) || !model.IsCommand(c.Body) {
			continue
		}
		e.St.CommandsSeen = c.ID
		if c.Disowned() {
			e.Disown(c)
			continue
		}
		if e.Issue == nil && e.Facts.PR.State != model.PROpen {
			// Nothing acts on a pull request that is done, a reply included.
			e.Logf("comment %d: %q on a pull request that is %s; not acted on", c.ID, core.FirstLine(c.Body), e.Facts.PR.State)
			continue
		}
		if verb, _, _ := model.ParseCommand(c.Body); core.ActsAlone(verb) {
			e.command(c) // a start has its own bounds
			continue
		}
		if len(live) == 0 {
			continue
		}
		if !c.CreatedAt.IsZero() && c.CreatedAt.Before(oldest) {
			e.Logf("comment %d: %q was written before the runs it could act on started; not acted on", c.ID, core.FirstLine(c.Body))
			continue
		}
		e.command(c)
	}
}

// command acts on one command comment.
func (e *eval) command(c model.IssueComment) {
	verb, arg, _ := model.ParseCommand(c.Body)
	text := "/pipeline " + verb
	if arg != "" {
		text += " " + core.OneWord(arg)
	}
	if !slices.Contains(ChatOpsCommands, verb) {
		e.Refuse(c, fmt.Sprintf("`/pipeline %s` is not a command; the commands are %s. Nothing was changed.", core.OneWord(verb), strings.Join(ChatOpsCommands, ", ")))
		return
	}
	if why := e.MayCommand(c); why != "" {
		e.Logf("comment %d: %s by %s refused: %s", c.ID, text, c.Author, why)
		e.Refuse(c, fmt.Sprintf("`%s` refused: %s. Nothing was changed.", text, why))
		return
	}
	if core.Bypasses(verb, arg) && e.authorOfLive(c.Author) {
		e.Logf("comment %d: %s by an author of the runs' pull requests refused", c.ID, text)
		e.Refuse(c, fmt.Sprintf("`%s` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed.", text))
		return
	}
	actor := e.Actor
	e.Actor = c.Author
	defer func() { e.Actor = actor }()
	if verb == model.CmdStart {
		e.commandStart(c, arg)
		return
	}
	if verb == model.CmdEnable || verb == model.CmdDisable {
		e.Logf("comment %d: %s by %s", c.ID, text, c.Author)
		e.Reply(c, dormant.Command(e.Cfg, e.St, arg, verb == model.CmdEnable))
		return
	}
	var notes []string
	for _, run := range e.St.Runs {
		if run.Status.Final() || e.commandSkips(run, verb) {
			continue
		}
		if note := e.commandRun(run, c, verb, arg); note != "" {
			notes = append(notes, note)
		}
	}
	if verb == model.CmdStatus || len(notes) > 0 {
		e.Reply(c, strings.Join(notes, " "))
	}
}

// authorOfLive reports whether login is an author of a change an open run would merge.
func (e *eval) authorOfLive(login string) bool {
	for _, run := range e.St.Runs {
		if !run.Status.Final() && e.Rules().IsAuthor(run, login) {
			return true
		}
	}
	return strings.EqualFold(login, e.Facts.PR.Author)
}

// commandRun applies command verb to run; it returns a sentence for the reply, or "".
func (e *eval) commandRun(run *model.Run, c model.IssueComment, verb, arg string) string {
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return fmt.Sprintf("Run %s: its pipeline is no longer in the config; left as it is.", run.ID)
	}
	stage := p.Stage(run.Stage)
	by := fmt.Sprintf("/pipeline %s by %s", verb, c.Author)
	target := func(def string) (string, string) {
		if arg == "" {
			return def, ""
		}
		if p.Stage(arg) == nil {
			return "", fmt.Sprintf("Run %s: pipeline %s has no stage %s; nothing was changed.", run.ID, p.Name, core.OneWord(arg))
		}
		return arg, ""
	}
	switch verb {
	case model.CmdStatus:
		return e.RunStatus(run)
	case model.CmdApprove:
		return e.commandApprove(run, stage, c, by)
	case model.CmdRetry:
		if stage == nil {
			return fmt.Sprintf("Run %s: stage %s is not in the pipeline; use `/pipeline restart`.", run.ID, core.OneWord(run.Stage))
		}
		if e.restartDeferred(p, run, by) {
			return ""
		}
		e.enter(run, run.Stage, run.Stage, by)
		if r := resuming(stage); r != nil { // keeps what succeeded
			e.apply(p, run, stage, r.Retry(e.context(p, run), run, stage))
		}
	case model.CmdSkip:
		if stage == nil {
			return fmt.Sprintf("Run %s: stage %s is not in the pipeline; use `/pipeline restart`.", run.ID, core.OneWord(run.Stage))
		}
		if stage.Type == lang.StageHuman {
			// The merge guard counts the skip as the stage held while it still counts.
			a := e.commandApproval(run, c)
			run.Stages[stage.ID].Skipped = &a
		}
		e.leave(run, stage, model.StageSkipped, core.DoneTarget(stage), by)
	case model.CmdCancel:
		e.finish(run, model.RunCancelled, TargetCancelled, by)
	case model.CmdUnblock:
		if run.Status != model.RunEscalated && arg == "" {
			return fmt.Sprintf("Run %s is not escalated; nothing to unblock.", run.ID)
		}
		if arg == "" && e.restartDeferred(p, run, by) {
			return ""
		}
		if arg == "" {
			// The same attempt goes on: what it was given (approvals, reminders) still counts.
			run.Status = model.RunRunning
			if sr := run.Stages[run.Stage]; sr != nil && !core.IsDone(sr.Status) {
				sr.Status = model.StageWaiting
			}
			run.Message = ""
			e.Record(run, run.Stage, run.Stage, by)
			if r := resuming(stage); r != nil {
				r.Unblock(e.context(p, run), run, stage)
			}
			return ""
		}
		to, bad := target(run.Stage)
		if bad != "" {
			return bad
		}
		e.enter(run, run.Stage, to, by)
	case model.CmdRestart:
		first := ""
		if len(p.Stages) > 0 {
			first = p.Stages[0].ID
		}
		to, bad := target(first)
		if bad != "" || to == "" {
			return bad
		}
		run.VerifiedSHA, run.VerifiedBy = "", ""
		e.enter(run, run.Stage, to, by)
	}
	return ""
}

// commandApprove records `/pipeline approve` c at run's current stage, when that is a
// human stage waiting for approval and c's author counts there; it returns a sentence
// for the reply, or "".
func (e *eval) commandApprove(run *model.Run, stage *lang.Stage, c model.IssueComment, by string) string {
	if stage == nil || stage.Type != lang.StageHuman || stage.WaitFor != lang.WaitApproval {
		return fmt.Sprintf("Run %s is not at a human stage waiting for approval; nothing to approve.", run.ID)
	}
	if !e.Rules().Allowed(run, stage, c.Author, false) {
		return fmt.Sprintf("Run %s: @%s's approval does not count for stage %s, which waits for %s.", run.ID, c.Author, stage.ID, e.Rules().WhoCan(stage))
	}
	sr := run.Stages[stage.ID]
	sr.Approvals = append(sr.Approvals, e.commandApproval(run, c))
	e.Logf("run %s: %s counts as %s's approval of %s", run.ID, by, c.Author, model.Short(e.HeadOf(run)))
	if run.Status == model.RunEscalated {
		return fmt.Sprintf("Run %s: approval recorded; the run is escalated, and goes on after `/pipeline unblock`.", run.ID)
	}
	return ""
}

// commandApproval is command comment c as an action at run's current human stage: who,
// on the head the run's pull request has now, when GitHub says it was written.
func (e *eval) commandApproval(run *model.Run, c model.IssueComment) model.Approval {
	at := c.CreatedAt
	if at.IsZero() {
		at = e.Now
	}
	return model.Approval{Login: c.Author, SHA: e.HeadOf(run), At: at, Comment: c.ID}
}
