package chatops

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// command is one `/pipeline` verb.
type command struct {
	verb string
	// bypasses reports whether the verb, with arg, moves a run past a stage without its
	// conditions — or keeps a pipeline (a hold, a review) from starting on the subject at
	// all: the authors of the runs' pull requests may not use it. nil: never.
	bypasses func(arg string) bool
	// subject acts on the subject, with or without open runs (alone).
	subject func(k Kernel, c model.IssueComment, arg string)
	// run acts on one open run; it returns a sentence for the reply, or "".
	run func(x *target) string
	// replies says the command is answered even when no run has anything to say.
	replies bool
}

// commands is the table of commands, in the order the help shows them.
var commands = []command{
	{verb: model.CmdApprove, run: approve},
	{verb: model.CmdRetry, run: retry},
	{verb: model.CmdSkip, bypasses: always, run: skip},
	{verb: model.CmdCancel, run: cancel},
	{verb: model.CmdUnblock, bypasses: always, run: unblock},
	{verb: model.CmdRestart, bypasses: atStage, run: restart},
	{verb: model.CmdRetest, subject: retest},
	{verb: model.CmdStatus, run: status, replies: true},
	{verb: model.CmdStart, subject: start},
	{verb: model.CmdEnable, subject: enable},
	{verb: model.CmdDisable, bypasses: always, subject: disable},
}

func always(string) bool { return true }

// atStage: a restart at a stage of one's choosing; from the first stage, it bypasses none.
func atStage(arg string) bool { return arg != "" }

// lookup is the command of verb, or nil.
func lookup(verb string) *command {
	for i := range commands {
		if commands[i].verb == verb {
			return &commands[i]
		}
	}
	return nil
}

// verbs lists the commands, in help order.
func verbs() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.verb
	}
	return out
}

// ActsAlone reports whether verb acts without open runs: it starts a pipeline or says
// whether one may start.
func ActsAlone(verb string) bool {
	c := lookup(verb)
	return c != nil && c.subject != nil
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
