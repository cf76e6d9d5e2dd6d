package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// ActsAlone reports whether verb acts without open runs: it starts a pipeline or says
// whether one may start.
func ActsAlone(verb string) bool {
	return verb == model.CmdStart || verb == model.CmdEnable || verb == model.CmdDisable
}

// Disown records that command comment c, which someone other than its author edited, is
// not acted on: GitHub lets anyone with write access edit any comment and keeps its
// author, so its text is not its author's word.
func (e *Eval) Disown(c model.IssueComment) {
	e.Logf("%s; not acted on", authority.Disowned(c))
	e.St.Disowned = append(e.St.Disowned, model.DisownedComment{ID: c.ID, Author: c.Author, Editor: c.EditedBy})
	if n := len(e.St.Disowned); n > model.MaxDisowned {
		e.St.Disowned = e.St.Disowned[n-model.MaxDisowned:]
	}
}

// Bypasses reports whether command verb (with arg) moves a run past a stage without its
// conditions — skip, unblock, a restart at a stage of one's choosing — or keeps a pipeline
// (a hold, a review) from starting on the subject at all: disable.
func Bypasses(verb, arg string) bool {
	return verb == model.CmdSkip || verb == model.CmdUnblock || verb == model.CmdRestart && arg != "" || verb == model.CmdDisable
}

// MayCommand says why c's author may not use commands, or "".
func (e *Eval) MayCommand(c model.IssueComment) string {
	if c.IsBot && !e.Facts.IsAgent(c.Author) {
		return "commands are taken from people, not apps"
	}
	return e.Rules().MayCommandAs(c.Author)
}

// DoneTarget is where a stage goes when it is done.
func DoneTarget(s *lang.Stage) string {
	switch s.Type {
	case lang.StageGate:
		return s.OnPass
	case lang.StageAction, lang.StageWebhook:
		return s.OnSuccess
	}
	return s.OnComplete
}

// runStatus is one sentence on where run is.
func (e *Eval) RunStatus(run *model.Run) string {
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

// Reply posts a one-line answer to command comment c (once: its key names the comment).
func (e *Eval) Reply(c model.IssueComment, text string) {
	e.Effects = append(e.Effects, model.Effect{Key: fmt.Sprintf("chatops/%d", c.ID), Kind: model.EffectComment,
		Number: e.Facts.PR.Number, Body: "@" + c.Author + " " + render.InertMarkers(oneLine(text)), WriteAhead: true})
}

// SettleReply records the outcome of a reply, and reports whether o was one.
func (e *Eval) SettleReply(o model.Outcome) bool {
	if !strings.HasPrefix(o.Key, "chatops/") {
		return false
	}
	if o.Err != "" {
		e.Logf("the reply %s was not posted: %s", o.Key, o.Err)
	}
	return true
}

func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// OneWord keeps a word from a comment harmless in a reply: at most 40 characters of
// letters, digits, '-' and '_'.
func OneWord(s string) string {
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
