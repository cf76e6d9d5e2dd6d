package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
)

func TestCIStatus(t *testing.T) {
	const who = "CI on abc1234"
	tests := []struct {
		name   string
		params string
		facts  *engine.Facts
		want   engine.GateResult
	}{
		{
			name:  "no checks yet",
			facts: facts(),
			want:  engine.GateResult{Status: engine.GatePending, Message: "no checks have reported on abc1234 yet", Who: who},
		},
		{
			name:  "all passed",
			facts: facts(check("test", engine.CheckSuccess), check("lint", engine.CheckSuccess)),
			want:  engine.GateResult{Status: engine.GatePass, Message: "all 2 checks passed"},
		},
		{
			name:  "one passed",
			facts: facts(check("test", engine.CheckSuccess)),
			want:  engine.GateResult{Status: engine.GatePass, Message: `check "test" passed`},
		},
		{
			name:  "one failed",
			facts: facts(check("test", engine.CheckFailure), check("lint", engine.CheckPending)),
			want:  engine.GateResult{Status: engine.GateFail, Message: `check "test" failed`, Who: who},
		},
		{
			name:  "two failed",
			facts: facts(check("test", engine.CheckFailure), check("lint", engine.CheckFailure)),
			want:  engine.GateResult{Status: engine.GateFail, Message: `checks "test" and "lint" failed`, Who: who},
		},
		{
			name:  "pending",
			facts: facts(check("test", engine.CheckPending), check("lint", engine.CheckSuccess)),
			want:  engine.GateResult{Status: engine.GatePending, Message: `waiting for "test"`, Who: who},
		},
		{
			name:  "a re-run replaces the earlier result",
			facts: facts(check("test", engine.CheckFailure), check("test", engine.CheckSuccess)),
			want:  engine.GateResult{Status: engine.GatePass, Message: `check "test" passed`},
		},
		{
			name:  "an unknown state fails closed",
			facts: facts(check("test", "weird")),
			want:  engine.GateResult{Status: engine.GateFail, Message: `check "test" failed`, Who: who},
		},
		{
			name:   "named check not reported yet",
			params: "{checks: [test, lint]}",
			facts:  facts(check("test", engine.CheckSuccess), check("deploy", engine.CheckFailure)),
			want:   engine.GateResult{Status: engine.GatePending, Message: `waiting for "lint"`, Who: who},
		},
		{
			name:   "named checks passed, others ignored",
			params: "{checks: [test, lint]}",
			facts:  facts(check("test", engine.CheckSuccess), check("lint", engine.CheckSuccess), check("deploy", engine.CheckFailure)),
			want:   engine.GateResult{Status: engine.GatePass, Message: "all 2 checks passed"},
		},
		{
			name:   "one named check as a string",
			params: "{checks: test}",
			facts:  facts(check("test", engine.CheckSuccess), check("lint", engine.CheckPending)),
			want:   engine.GateResult{Status: engine.GatePass, Message: `check "test" passed`},
		},
		{
			name:   "expect failure, failing",
			params: "{expect: failure}",
			facts:  facts(check("test", engine.CheckFailure)),
			want:   engine.GateResult{Status: engine.GatePass, Message: "CI on abc1234 is failing, as expected"},
		},
		{
			name:   "expect failure, passing",
			params: "{expect: failure}",
			facts:  facts(check("test", engine.CheckSuccess)),
			want: engine.GateResult{Status: engine.GateFail,
				Message: "CI on abc1234 is passing; expected it to be failing", Who: who},
		},
		{
			name:   "expect failure, still running",
			params: "{expect: failure}",
			facts:  facts(check("test", engine.CheckPending)),
			want: engine.GateResult{Status: engine.GatePending,
				Message: "CI on abc1234 is pending; expected it to be failing", Who: who},
		},
		{
			name:   "expect pending, running",
			params: "{expect: pending}",
			facts:  facts(check("test", engine.CheckPending)),
			want:   engine.GateResult{Status: engine.GatePass, Message: "CI on abc1234 is pending, as expected"},
		},
		{
			name:   "expect pending, done",
			params: "{expect: pending}",
			facts:  facts(check("test", engine.CheckSuccess)),
			want: engine.GateResult{Status: engine.GateFail,
				Message: "CI on abc1234 is passing; expected it to be pending", Who: who},
		},
		{
			name:  "no pull request fails closed",
			facts: &engine.Facts{},
			want: engine.GateResult{Status: engine.GateError,
				Message: `there is no pull request to check; "ci_status" works only on pull requests`},
		},
		{
			name:  "no head commit fails closed",
			facts: facts(func(pr *engine.PullRequest) { pr.HeadSHA = "" }),
			want:  engine.GateResult{Status: engine.GateError, Message: "the head commit of the pull request is unknown"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := tt.params
			if params == "" {
				params = "{}"
			}
			c := mustCompile(t, CIStatus{}, "ci_status", params)
			tt.want.Check = "ci_status"
			assert.Equal(t, tt.want, c.Evaluate(tt.facts))
		})
	}
}

func TestCIStatusParams(t *testing.T) {
	tests := []struct {
		name   string
		params string
		want   string
	}{
		{name: "bad expect", params: "{expect: green}", want: `t.yaml:1:10: "expect" of check "ci_status" must be one of "success", "failure", "pending", not "green" [gate]`},
		{name: "empty checks", params: "{checks: []}", want: `t.yaml:1:10: "checks" of check "ci_status" must name at least one check [gate]`},
		{name: "checks of mappings", params: "{checks: [{a: b}]}", want: `t.yaml:1:11: items of "checks" of check "ci_status" must be strings [gate]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := compile(t, CIStatus{}, "ci_status", tt.params)
			assert.Equal(t, tt.want, engine.ErrorList(errs).Error())
		})
	}
}
