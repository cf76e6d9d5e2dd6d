package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

func TestCommand(t *testing.T) {
	c := mustCompile(t, Command{}, "command", "{run: make test, timeout: 5m}")
	with := func(r model.CommandResult) *model.Facts {
		return facts(func(pr *model.PullRequest) { pr.Commands = map[string]model.CommandResult{"make test": r} })
	}
	assert.Equal(t, model.GateResult{Check: "command", Status: model.GatePass, Message: `"make test" exited 0 on abc1234`},
		c.Evaluate(with(model.CommandResult{})))
	assert.Equal(t, model.GateResult{Check: "command", Status: model.GateFail, Message: `"make test" exited 2 on abc1234: FAIL x_test.go`, Who: "its author"},
		c.Evaluate(with(model.CommandResult{ExitCode: 2, Output: "FAIL x_test.go\n"})))
	assert.Equal(t, model.GateFail, c.Evaluate(with(model.CommandResult{TimedOut: true, Err: "5m0s"})).Status)
	assert.Equal(t, model.GateResult{Check: "command", Status: model.GateError, Message: `"make test" was not run: the pull request's head lives in a fork`, Who: "a maintainer"},
		c.Evaluate(with(model.CommandResult{Err: "the pull request's head lives in a fork"})))
	assert.Equal(t, model.GateError, c.Evaluate(facts()).Status, "not run: fails closed")
}
