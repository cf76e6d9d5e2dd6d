package gates

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// Command is the `command` check of the reference: a shell command (`run`) exits 0 within
// `timeout`. It runs only when the config sets settings.allow_commands, never on a fork's
// code, in a checkout of exactly the pull request's head (see the action's run); the facts
// carry its result (Facts.PR.Commands).
type Command struct{}

var _ engine.Gate = Command{}

// Compile reads `run`, a non-empty string, which is required, and `timeout`, a duration.
func (Command) Compile(p *lang.Params) (engine.Check, error) {
	if !p.Has("run") {
		p.Errorf("run", "missing required key %q for check %q", "run", commandName)
		p.Duration("timeout", 0)
		return nil, nil
	}
	before := len(p.Errors())
	run := p.String("run", "")
	timeout := p.Duration("timeout", 0)
	if len(p.Errors()) > before {
		return nil, nil
	}
	if run == "" {
		p.Errorf("run", "%q of check %q must not be empty", "run", commandName)
		return nil, nil
	}
	return command{run: run, timeout: timeout}, nil
}

type command struct {
	run     string
	timeout time.Duration // 0: none given
}

var _ engine.Check = command{}

const commandName = "command"

// DefaultCommandTimeout is how long a command may run when its check gives no timeout.
const DefaultCommandTimeout = 5 * time.Minute

// Run returns the command line.
func (c command) Run() string { return c.run }

// Timeout returns the `timeout`, or 0 when none is given.
func (c command) Timeout() time.Duration { return c.timeout }

// Evaluate passes when the command exited 0; it fails when it exited otherwise or ran out
// of time, and fails closed when it was not run (the message says why).
func (c command) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(commandName)
	}
	res := model.GateResult{Check: commandName}
	r, ran := f.PR.Commands[c.run]
	switch {
	case !ran:
		res.Status, res.Message = model.GateError, fmt.Sprintf("%q was not run", c.run)
	case r.TimedOut:
		res.Status, res.Message = model.GateFail, fmt.Sprintf("%q ran out of time (%s)%s", c.run, r.Err, tail(r.Output))
		res.Who = "its author"
	case r.Err != "":
		res.Status, res.Message = model.GateError, fmt.Sprintf("%q was not run: %s", c.run, r.Err)
		res.Who = "a maintainer"
	case r.ExitCode == 0:
		res.Status, res.Message = model.GatePass, fmt.Sprintf("%q exited 0 on %s", c.run, shortSHA(f.PR.HeadSHA))
	default:
		res.Status, res.Message = model.GateFail, fmt.Sprintf("%q exited %d on %s%s", c.run, r.ExitCode, shortSHA(f.PR.HeadSHA), tail(r.Output))
		res.Who = "its author"
	}
	return res
}

func tail(out string) string {
	out = strings.TrimSpace(out)
	if out == "" {
		return ""
	}
	return ": " + out
}
