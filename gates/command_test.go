package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
)

func TestCommand(t *testing.T) {
	c := mustCompile(t, Command{}, "command", "{run: make test, timeout: 5m}")
	with := func(r engine.CommandResult) *engine.Facts {
		return facts(func(pr *engine.PullRequest) { pr.Commands = map[string]engine.CommandResult{"make test": r} })
	}
	assert.Equal(t, engine.GateResult{Check: "command", Status: engine.GatePass, Message: `"make test" exited 0 on abc1234`},
		c.Evaluate(with(engine.CommandResult{})))
	assert.Equal(t, engine.GateResult{Check: "command", Status: engine.GateFail, Message: `"make test" exited 2 on abc1234: FAIL x_test.go`, Who: "its author"},
		c.Evaluate(with(engine.CommandResult{ExitCode: 2, Output: "FAIL x_test.go\n"})))
	assert.Equal(t, engine.GateFail, c.Evaluate(with(engine.CommandResult{TimedOut: true, Err: "5m0s"})).Status)
	assert.Equal(t, engine.GateResult{Check: "command", Status: engine.GateError, Message: `"make test" was not run: the pull request's head lives in a fork`, Who: "a maintainer"},
		c.Evaluate(with(engine.CommandResult{Err: "the pull request's head lives in a fork"})))
	assert.Equal(t, engine.GateError, c.Evaluate(facts()).Status, "not run: fails closed")
}
