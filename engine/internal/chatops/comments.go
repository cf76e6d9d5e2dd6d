package chatops

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"
)

// Comments acts on the command comments of the subject not acted on yet, oldest first.
func Comments(k Kernel) {
	w := k.World()
	var live []*model.Run
	for _, r := range w.St.Runs {
		if !r.Status.Final() {
			live = append(live, r)
		}
	}
	if len(live) == 0 && !startsWaiting(w) {
		return // commands act on runs; without any, nothing is recorded either
	}
	var oldest time.Time
	for i, r := range live {
		if i == 0 || r.StartedAt.Before(oldest) {
			oldest = r.StartedAt
		}
	}
	comments := append([]model.IssueComment(nil), w.Facts.PR.Comments...)
	sort.SliceStable(comments, func(i, j int) bool { return comments[i].ID < comments[j].ID })
	for _, c := range comments {
		if c.ID <= w.St.CommandsSeen || c.Viewer || model.SameIdentity(c.Author, w.Facts.Viewer) || !model.IsCommand(c.Body) {
			continue
		}
		w.St.CommandsSeen = c.ID
		if c.Disowned() {
			disown(k, c)
			continue
		}
		if !w.Issue && w.Facts.PR.State != model.PROpen {
			// Nothing acts on a pull request that is done, a reply included.
			k.Logf("comment %d: %q on a pull request that is %s; not acted on", c.ID, firstLine(c.Body), w.Facts.PR.State)
			continue
		}
		if verb, _, _ := model.ParseCommand(c.Body); ActsAlone(verb) {
			act(k, c) // a start has its own bounds
			continue
		}
		if len(live) == 0 {
			continue
		}
		if !c.CreatedAt.IsZero() && c.CreatedAt.Before(oldest) {
			k.Logf("comment %d: %q was written before the runs it could act on started; not acted on", c.ID, firstLine(c.Body))
			continue
		}
		act(k, c)
	}
}

// act acts on one command comment.
func act(k Kernel, c model.IssueComment) {
	verb, arg, _ := model.ParseCommand(c.Body)
	text := "/pipeline " + verb
	if arg != "" {
		text += " " + markdown.OneWord(arg)
	}
	cmd := lookup(verb)
	if cmd == nil {
		refuse(k, c, fmt.Sprintf("`/pipeline %s` is not a command; the commands are %s. Nothing was changed.", markdown.OneWord(verb), strings.Join(verbs(), ", ")))
		return
	}
	if why := mayCommand(k, c); why != "" {
		k.Logf("comment %d: %s by %s refused: %s", c.ID, text, c.Author, why)
		refuse(k, c, fmt.Sprintf("`%s` refused: %s. Nothing was changed.", text, why))
		return
	}
	if cmd.bypasses != nil && cmd.bypasses(arg) && authorOfLive(k, c.Author) {
		k.Logf("comment %d: %s by an author of the runs' pull requests refused", c.ID, text)
		refuse(k, c, fmt.Sprintf("`%s` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed.", text))
		return
	}
	if cmd.subject != nil {
		cmd.subject(k, c, arg)
		return
	}
	w := k.World()
	var notes []string
	for _, run := range w.St.Runs {
		if run.Status.Final() || k.PassesOver(run, verb) {
			continue
		}
		if note := onRun(k, cmd, run, c, arg); note != "" {
			notes = append(notes, note)
		}
	}
	if cmd.replies || len(notes) > 0 {
		reply(k, c, strings.Join(notes, " "))
	}
}

// onRun applies cmd to run; it returns a sentence for the reply, or "".
func onRun(k Kernel, cmd *command, run *model.Run, c model.IssueComment, arg string) string {
	p := k.World().Cfg.PipelineFor(run)
	if p == nil {
		return fmt.Sprintf("Run %s: its pipeline is no longer in the config; left as it is.", run.ID)
	}
	x := &target{k: k, p: p, run: run, stage: p.Stage(run.Stage), c: c, arg: arg, by: fmt.Sprintf("/pipeline %s by %s", cmd.verb, c.Author)}
	return cmd.run(x)
}

// mayCommand says why c's author may not use commands, or "": read on today's facts.
func mayCommand(k Kernel, c model.IssueComment) string {
	if c.IsBot && !k.World().Facts.IsAgent(c.Author) {
		return "commands are taken from people, not apps"
	}
	return k.Rules().MayCommandAs(c.Author)
}

// authorOfLive reports whether login is an author of a change an open run would merge.
func authorOfLive(k Kernel, login string) bool {
	w, rules := k.World(), k.Rules()
	for _, run := range w.St.Runs {
		if !run.Status.Final() && rules.IsAuthor(run, login) {
			return true
		}
	}
	return strings.EqualFold(login, w.Facts.PR.Author)
}

// disown records that command comment c, which someone other than its author edited, is
// not acted on: GitHub lets anyone with write access edit any comment and keeps its
// author, so its text is not its author's word.
func disown(k Kernel, c model.IssueComment) {
	st := k.World().St
	k.Logf("%s; not acted on", authority.Disowned(c))
	st.Disowned = append(st.Disowned, model.DisownedComment{ID: c.ID, Author: c.Author, Editor: c.EditedBy})
	if n := len(st.Disowned); n > model.MaxDisowned {
		st.Disowned = st.Disowned[n-model.MaxDisowned:]
	}
}
