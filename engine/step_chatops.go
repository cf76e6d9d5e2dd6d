package engine

import (
	"fmt"
	"sort"
	"strings"

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
//
// Only people with settings.chatops.permission (default write) — and, when
// settings.chatops.from is set, members of one of its groups — may use them; anyone else
// gets a one-line reply saying why, and nothing moves. Commands act on the subject's runs
// that are not finished; a command is acted on once (State.CommandsSeen), and commands
// written before the oldest of those runs started are not acted on at all.

// Chat-op commands.
const (
	CmdApprove = "approve"
	CmdRetry   = "retry"
	CmdSkip    = "skip"
	CmdCancel  = "cancel"
	CmdUnblock = "unblock"
	CmdRestart = "restart"
	CmdStatus  = "status"
)

// ChatOpsCommands lists the commands, in the order the help shows them.
var ChatOpsCommands = []string{CmdApprove, CmdRetry, CmdSkip, CmdCancel, CmdUnblock, CmdRestart, CmdStatus}

const commandPrefix = "/pipeline"

// escalate stops run for a person, and asks for its pipeline's on_error list.
func (e *eval) escalate(run *Run, why string) {
	if sr := run.Stages[run.Stage]; sr != nil {
		sr.Deadlines = nil // it waits for a person, not for time
	}
	run.Status = RunEscalated
	run.Message = why
	e.record(run, run.Stage, lang.TargetEscalate, why)
	e.logf("run %s escalated at %s: %s; it waits for a person (/pipeline retry, skip, unblock, restart or cancel)", run.ID, run.Stage, why)
	e.runList(run, ListOnError) // step_lists.go
}

// isCommand reports whether a comment body is a `/pipeline` command: its first
// non-blank line starts with the word /pipeline.
func isCommand(body string) bool {
	_, _, ok := parseCommand(body)
	return ok
}

// parseCommand returns the verb and argument of a command comment.
func parseCommand(body string) (verb, arg string, ok bool) {
	line := strings.TrimSpace(body)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != commandPrefix {
		return "", "", false
	}
	if len(f) > 1 {
		verb = strings.ToLower(f[1])
	}
	if len(f) > 2 {
		arg = f[2]
	}
	return verb, arg, true
}

// chatops acts on the command comments not acted on yet, oldest first.
func (e *eval) chatops() {
	var live []*Run
	for _, r := range e.st.Runs {
		if !r.Status.Final() {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return // commands act on runs; without any, nothing is recorded either
	}
	oldest := live[0].StartedAt
	for _, r := range live {
		if r.StartedAt.Before(oldest) {
			oldest = r.StartedAt
		}
	}
	comments := append([]IssueComment(nil), e.facts.PR.Comments...)
	sort.SliceStable(comments, func(i, j int) bool { return comments[i].ID < comments[j].ID })
	for _, c := range comments {
		if c.ID <= e.st.CommandsSeen || c.Viewer || SameIdentity(c.Author, e.facts.Viewer) || !isCommand(c.Body) {
			continue
		}
		e.st.CommandsSeen = c.ID
		if c.Disowned() {
			e.disown(c)
			continue
		}
		if !c.CreatedAt.IsZero() && c.CreatedAt.Before(oldest) {
			e.logf("comment %d: %q was written before the runs it could act on started; not acted on", c.ID, firstLine(c.Body))
			continue
		}
		e.command(c)
	}
}

// disown records that command comment c, which someone other than its author edited, is
// not acted on: GitHub lets anyone with write access edit any comment and keeps its
// author, so its text is not its author's word.
func (e *eval) disown(c IssueComment) {
	e.logf("%s; not acted on", disowned(c))
	e.st.Disowned = append(e.st.Disowned, DisownedComment{ID: c.ID, Author: c.Author, Editor: c.EditedBy})
	if n := len(e.st.Disowned); n > MaxDisowned {
		e.st.Disowned = e.st.Disowned[n-MaxDisowned:]
	}
}

// command acts on one command comment.
func (e *eval) command(c IssueComment) {
	verb, arg, _ := parseCommand(c.Body)
	text := "/pipeline " + verb
	if arg != "" {
		text += " " + oneWord(arg)
	}
	if !contains(ChatOpsCommands, verb) {
		e.refuse(c, fmt.Sprintf("`/pipeline %s` is not a command; the commands are %s. Nothing was changed.", oneWord(verb), strings.Join(ChatOpsCommands, ", ")))
		return
	}
	if why := e.mayCommand(c); why != "" {
		e.logf("comment %d: %s by %s refused: %s", c.ID, text, c.Author, why)
		e.refuse(c, fmt.Sprintf("`%s` refused: %s. Nothing was changed.", text, why))
		return
	}
	if bypasses(verb, arg) && e.authorOfLive(c.Author) {
		e.logf("comment %d: %s by an author of the runs' pull requests refused", c.ID, text)
		e.refuse(c, fmt.Sprintf("`%s` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed.", text))
		return
	}
	actor := e.actor
	e.actor = c.Author
	defer func() { e.actor = actor }()
	var notes []string
	for _, run := range e.st.Runs {
		if run.Status.Final() || e.commandSkips(run, verb) { // step_pipeline.go
			continue
		}
		if note := e.commandRun(run, c, verb, arg); note != "" {
			notes = append(notes, note)
		}
	}
	if verb == CmdStatus || len(notes) > 0 {
		e.reply(c, strings.Join(notes, " "))
	}
}

// bypasses reports whether command verb (with arg) moves a run past a stage without its
// conditions: skip, unblock, a restart at a stage of one's choosing.
func bypasses(verb, arg string) bool {
	return verb == CmdSkip || verb == CmdUnblock || verb == CmdRestart && arg != ""
}

// authorOfLive reports whether login is an author of a change an open run would merge.
func (e *eval) authorOfLive(login string) bool {
	for _, run := range e.st.Runs {
		if !run.Status.Final() && e.isAuthor(run, login) { // authority.go
			return true
		}
	}
	return strings.EqualFold(login, e.facts.PR.Author)
}

// mayCommand says why c's author may not use commands, or "".
func (e *eval) mayCommand(c IssueComment) string {
	if c.IsBot {
		return "commands are taken from people, not apps"
	}
	return e.mayCommandAs(c.Author)
}

// mayCommandAs says why login may not use commands today, or "": the permission
// settings.chatops.permission names (default write), read now, and membership now of a
// group of settings.chatops.from when it is set.
func (e *eval) mayCommandAs(login string) string {
	need := e.cfg.Settings.ChatOpsPermission
	if need == "" {
		need = DefaultChatOpsPermission
	}
	if !e.facts.People.Has(login, need) {
		have, ok := e.facts.People.Permission(login)
		if !ok {
			have = "not known"
		}
		return fmt.Sprintf("it needs %s permission on this repository, and @%s's is %s", need, login, have)
	}
	if from := e.cfg.Settings.ChatOpsFrom; len(from) > 0 {
		for _, name := range from {
			if e.facts.InGroup(e.cfg.Group(name), login) {
				return ""
			}
		}
		return fmt.Sprintf("only members of %s may use commands", strings.Join(from, ", "))
	}
	return ""
}

// commandRun applies command verb to run; it returns a sentence for the reply, or "".
func (e *eval) commandRun(run *Run, c IssueComment, verb, arg string) string {
	p := e.cfg.PipelineFor(run)
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
			return "", fmt.Sprintf("Run %s: pipeline %s has no stage %s; nothing was changed.", run.ID, p.Name, oneWord(arg))
		}
		return arg, ""
	}
	switch verb {
	case CmdStatus:
		return e.runStatus(run)
	case CmdApprove:
		return e.commandApprove(run, stage, c, by)
	case CmdRetry:
		if stage == nil {
			return fmt.Sprintf("Run %s: stage %s is not in the pipeline; use `/pipeline restart`.", run.ID, oneWord(run.Stage))
		}
		if e.restartDeferred(p, run, by) { // step_react_deferred.go
			return ""
		}
		e.enter(run, run.Stage, run.Stage, by)
		e.retryParallel(p, run, stage) // step_parallel.go: keeps the branches that succeeded
	case CmdSkip:
		if stage == nil {
			return fmt.Sprintf("Run %s: stage %s is not in the pipeline; use `/pipeline restart`.", run.ID, oneWord(run.Stage))
		}
		if stage.Type == lang.StageHuman {
			// The merge guard counts the skip as the stage held while it still counts.
			a := e.commandApproval(run, c)
			run.Stages[stage.ID].Skipped = &a
		}
		e.leave(run, stage, StageSkipped, doneTarget(stage), by)
	case CmdCancel:
		e.finish(run, RunCancelled, TargetCancelled, by)
	case CmdUnblock:
		if run.Status != RunEscalated && arg == "" {
			return fmt.Sprintf("Run %s is not escalated; nothing to unblock.", run.ID)
		}
		if arg == "" && e.restartDeferred(p, run, by) { // step_react_deferred.go
			return ""
		}
		if arg == "" {
			// The same attempt goes on: what it was given (approvals, reminders) still counts.
			run.Status = RunRunning
			if sr := run.Stages[run.Stage]; sr != nil && !isDone(sr.Status) {
				sr.Status = StageWaiting
			}
			run.Message = ""
			e.record(run, run.Stage, run.Stage, by)
			e.unblockBranches(run, stage) // step_parallel.go
			return ""
		}
		to, bad := target(run.Stage)
		if bad != "" {
			return bad
		}
		e.enter(run, run.Stage, to, by)
	case CmdRestart:
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
func (e *eval) commandApprove(run *Run, stage *lang.Stage, c IssueComment, by string) string {
	if stage == nil || stage.Type != lang.StageHuman || stage.WaitFor != lang.WaitApproval {
		return fmt.Sprintf("Run %s is not at a human stage waiting for approval; nothing to approve.", run.ID)
	}
	if !e.allowed(run, stage, c.Author, false) {
		return fmt.Sprintf("Run %s: @%s's approval does not count for stage %s, which waits for %s.", run.ID, c.Author, stage.ID, e.whoCan(stage))
	}
	sr := run.Stages[stage.ID]
	sr.Approvals = append(sr.Approvals, e.commandApproval(run, c))
	e.logf("run %s: %s counts as %s's approval of %s", run.ID, by, c.Author, short(e.headOf(run)))
	if run.Status == RunEscalated {
		return fmt.Sprintf("Run %s: approval recorded; the run is escalated, and goes on after `/pipeline unblock`.", run.ID)
	}
	return ""
}

// commandApproval is command comment c as an action at run's current human stage: who,
// on the head the run's pull request has now, when GitHub says it was written.
func (e *eval) commandApproval(run *Run, c IssueComment) Approval {
	at := c.CreatedAt
	if at.IsZero() {
		at = e.now
	}
	return Approval{Login: c.Author, SHA: e.headOf(run), At: at, Comment: c.ID} // step_issue.go
}

// doneTarget is where a stage goes when it is done.
func doneTarget(s *lang.Stage) string {
	switch s.Type {
	case lang.StageGate:
		return s.OnPass
	case lang.StageAction, lang.StageWebhook:
		return s.OnSuccess
	}
	return s.OnComplete
}

// runStatus is one sentence on where run is.
func (e *eval) runStatus(run *Run) string {
	s := fmt.Sprintf("Run %s is %s at %s", run.ID, run.Status, run.Stage)
	if sr := run.Stages[run.Stage]; sr != nil && run.Status != RunEscalated {
		for _, r := range sr.Results {
			if r.Status != GatePass && !r.Optional {
				s += ": " + InertInline(r.Check+" "+r.Message) // names of checks, labels, people
				break
			}
		}
	}
	if run.Status == RunEscalated && run.Message != "" {
		s += ": " + InertInline(run.Message)
	}
	return s + "."
}

// reply posts a one-line answer to command comment c (once: its key names the comment).
func (e *eval) reply(c IssueComment, text string) {
	e.effects = append(e.effects, Effect{Key: fmt.Sprintf("chatops/%d", c.ID), Kind: EffectComment,
		Number: e.facts.PR.Number, Body: "@" + c.Author + " " + inertMarkers(oneLine(text)), WriteAhead: true})
}

// settleReply records the outcome of a reply, and reports whether o was one.
func (e *eval) settleReply(o Outcome) bool {
	if !strings.HasPrefix(o.Key, "chatops/") {
		return false
	}
	if o.Err != "" {
		e.logf("the reply %s was not posted: %s", o.Key, o.Err)
	}
	return true
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// oneWord keeps a word from a comment harmless in a reply: at most 40 characters of
// letters, digits, '-' and '_'.
func oneWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 40 {
			break
		}
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
