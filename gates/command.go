package gates

import (
	"time"

	"github.com/org/pipeline-action/engine"
)

// Command is the `command` check of the reference: a shell command (`run`) exits 0
// within `timeout`. Commands are not run yet (and will run only when the config sets
// settings.allow_commands, never on a fork's code), so a run that reaches it stops.
type Command struct{}

var _ engine.Gate = Command{}

// Compile reads `run`, a non-empty string, which is required, and `timeout`, a duration.
func (Command) Compile(p *engine.Params) (engine.Check, error) {
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

var (
	_ engine.Check       = command{}
	_ engine.Unsupported = command{}
)

const commandName = "command"

// Run returns the command line.
func (c command) Run() string { return c.run }

// Timeout returns the `timeout`, or 0 when none is given.
func (c command) Timeout() time.Duration { return c.timeout }

// Unsupported says what evaluating the check lacks.
func (command) Unsupported() string { return `check "command" (commands are not run yet)` }

// Evaluate fails closed: nothing runs the command yet.
func (c command) Evaluate(*engine.Facts) engine.GateResult { return unsupported(commandName, c) }
