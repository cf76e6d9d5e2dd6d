package gates

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// TestChecksRecordParams: the engine reads a check's params through its accessors.
func TestChecksRecordParams(t *testing.T) {
	c := mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", `{scope: humans, pr: "{{ context.prs[0] }}"}`)
	pam := c.(prApprovalsMet)
	assert.Equal(t, ScopeHumans, pam.Scope())
	require.NotNil(t, pam.PR())
	assert.Equal(t, "{{ context.prs[0] }}", pam.PR().Src)
	assert.Equal(t, lang.Pos{File: "t.yaml", Line: 1, Col: 22}, pam.PR().Pos, "inside the quotes")

	c = mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", "{}")
	assert.Equal(t, ScopeAll, c.(prApprovalsMet).Scope())
	assert.Nil(t, c.(prApprovalsMet).PR())

	c = mustCompile(t, Command{}, "command", "{run: make test, timeout: 1d}")
	assert.Equal(t, "make test", c.(command).Run())
	assert.Equal(t, 24*time.Hour, c.(command).Timeout())

	c = mustCompile(t, FileExists{}, "file_exists", "{paths: docs/README.md}")
	assert.Equal(t, []string{"docs/README.md"}, c.(fileExists).Paths())

	c = mustCompile(t, HumanApproved{}, "human_approved", "{from: maintainers}")
	assert.Equal(t, "maintainers", c.(GroupRef).Group())
	c = mustCompile(t, HumanApproved{}, "human_approved", "{}")
	assert.Equal(t, "", c.(GroupRef).Group())

	c = mustCompile(t, CIStatus{}, "ci_status", "{pr: all}")
	assert.Equal(t, "all", c.(ciStatusOf).PR().Src)
	assert.True(t, c.(ciStatusOf).PR().IsConstant())
}

func TestNewCheckParams(t *testing.T) {
	tests := []struct {
		name   string
		gate   engine.Gate
		check  string
		params string
		want   string
	}{
		{name: "scope misspelt", gate: PRApprovalsMet{}, check: "pr_approvals_met", params: "{scope: agent}",
			want: `t.yaml:1:9: "scope" of check "pr_approvals_met" must be one of "agents", "humans", "all", not "agent" [gate]`},
		{name: "pr with a bad template", gate: PRApprovalsMet{}, check: "pr_approvals_met", params: `{pr: "{{ contxt.prs[0] }}"}`,
			want: `t.yaml:1:10: unknown name "contxt" in expression; known names: "branches", "context", "github", "outputs", "run", "shared", "stages", "subject", "trigger", "variables"; did you mean "context"? [expr]`},
		{name: "pr not a string", gate: PRApprovalsMet{}, check: "pr_approvals_met", params: "{pr: [1]}",
			want: `t.yaml:1:6: "pr" of check "pr_approvals_met" must be a string [gate]`},
		{name: "command without run", gate: Command{}, check: "command", params: "{timeout: 5m}",
			want: `t.yaml:1:1: missing required key "run" for check "command" [gate]`},
		{name: "command with an empty run", gate: Command{}, check: "command", params: `{run: ""}`,
			want: `t.yaml:1:7: "run" of check "command" must not be empty [gate]`},
		{name: "command with a bad timeout", gate: Command{}, check: "command", params: "{run: make, timeout: 3 days}",
			want: `t.yaml:1:22: "timeout" of check "command": invalid duration "3 days"; use a number and a unit: 30s, 5m, 2h, 7d [type]`},
		{name: "command with a zero timeout", gate: Command{}, check: "command", params: "{run: make, timeout: 0s}",
			want: `t.yaml:1:22: "timeout" of check "command": duration "0s" must be positive [type]`},
		{name: "command with a list timeout", gate: Command{}, check: "command", params: "{run: make, timeout: [1m]}",
			want: `t.yaml:1:22: "timeout" of check "command" must be a duration such as 30s, 5m, 2h or 7d [gate]`},
		{name: "file_exists without paths", gate: FileExists{}, check: "file_exists", params: "{}",
			want: `t.yaml:1:1: missing required key "paths" for check "file_exists" [gate]`},
		{name: "file_exists with no paths", gate: FileExists{}, check: "file_exists", params: "{paths: []}",
			want: `t.yaml:1:9: "paths" of check "file_exists" must name at least one path [gate]`},
		{name: "file_exists with an empty path", gate: FileExists{}, check: "file_exists", params: `{paths: [a, ""]}`,
			want: `t.yaml:1:9: "paths" of check "file_exists" must not hold an empty path [gate]`},
		{name: "file_exists with a mapping", gate: FileExists{}, check: "file_exists", params: "{paths: {a: b}}",
			want: `t.yaml:1:9: "paths" of check "file_exists" must be a list of strings [gate]`},
		{name: "file_exists with a malformed glob", gate: FileExists{}, check: "file_exists", params: `{paths: ["src/[x/*.go"]}`,
			want: `t.yaml:1:9: "paths" of check "file_exists" holds a malformed path "src/[x/*.go": segment "[x" is malformed [gate]`},
		{name: "human_approved from nothing", gate: HumanApproved{}, check: "human_approved", params: `{from: ""}`,
			want: `t.yaml:1:8: "from" of check "human_approved" must name a group [gate]`},
		{name: "human_approved from a list", gate: HumanApproved{}, check: "human_approved", params: "{from: [a]}",
			want: `t.yaml:1:8: "from" of check "human_approved" must be a string [gate]`},
		{name: "ci_status with checks and workflows", gate: CIStatus{}, check: "ci_status", params: "{checks: [a], workflows: [b]}",
			want: `t.yaml:1:26: "checks" and "workflows" of check "ci_status" are the same list; write only one [gate]`},
		{name: "ci_status with no workflows", gate: CIStatus{}, check: "ci_status", params: "{workflows: []}",
			want: `t.yaml:1:13: "workflows" of check "ci_status" must name at least one check [gate]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := compile(t, tt.gate, tt.check, tt.params)
			assert.Equal(t, tt.want, lang.ErrorList(errs).Error())
		})
	}
}

func TestCIStatusWorkflows(t *testing.T) {
	c := mustCompile(t, CIStatus{}, "ci_status", `{workflows: ["test", "lint"], expect: success}`)
	f := facts(job("test", "test", model.CheckSuccess, "s1"), job("lint", "lint", model.CheckPending, "s2"),
		job("deploy", "deploy", model.CheckFailure, "s3"))
	assert.Equal(t, model.GateResult{Check: "ci_status", Status: model.GatePending, Message: `waiting for "lint"`,
		Who: "CI on abc1234"}, c.Evaluate(f))
}

// TestCIStatusOfAnotherPRReadsThePRItIsGiven: with `pr`, the check is a PRCheck whose
// template the engine renders; it evaluates the facts' PR as ci_status does (the engine puts
// the named pull request there).
func TestCIStatusOfAnotherPRReadsThePRItIsGiven(t *testing.T) {
	c := mustCompile(t, CIStatus{}, "ci_status", `{pr: "{{ context.prs[0] }}"}`)
	pc, ok := c.(engine.PRCheck)
	require.True(t, ok)
	require.NotNil(t, pc.PR())
	assert.Equal(t, "{{ context.prs[0] }}", pc.PR().Src)
	assert.Equal(t, model.GatePass, c.Evaluate(facts(check("test", model.CheckSuccess))).Status)
	assert.Equal(t, model.GateFail, c.Evaluate(facts(check("test", model.CheckFailure))).Status)
	own := mustCompile(t, CIStatus{}, "ci_status", `{}`)
	_, ok = own.(engine.PRCheck)
	assert.False(t, ok, "without pr, ci_status reads the run's own pull request")
}
