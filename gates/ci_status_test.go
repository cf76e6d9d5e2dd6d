package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCIStatus(t *testing.T) {
	const who = "CI on abc1234"
	tests := []gateCase{
		{
			name:  "no checks yet",
			facts: facts(),
			want:  model.GateResult{Status: model.GatePending, Message: "no checks have reported on abc1234 yet", Who: who},
		},
		{
			name:  "all passed",
			facts: facts(check("test", model.CheckSuccess), check("lint", model.CheckSuccess)),
			want:  model.GateResult{Status: model.GatePass, Message: "all 2 checks passed"},
		},
		{
			name:  "one passed",
			facts: facts(check("test", model.CheckSuccess)),
			want:  model.GateResult{Status: model.GatePass, Message: `check "test" passed`},
		},
		{
			name:  "one failed",
			facts: facts(check("test", model.CheckFailure), check("lint", model.CheckPending)),
			want:  model.GateResult{Status: model.GateFail, Message: `check "test" failed`, Who: who},
		},
		{
			name:  "two failed",
			facts: facts(check("test", model.CheckFailure), check("lint", model.CheckFailure)),
			want:  model.GateResult{Status: model.GateFail, Message: `checks "test" and "lint" failed`, Who: who},
		},
		{
			name:  "pending",
			facts: facts(check("test", model.CheckPending), check("lint", model.CheckSuccess)),
			want:  model.GateResult{Status: model.GatePending, Message: `waiting for "test"`, Who: who},
		},
		{
			name:  "a re-run replaces the earlier result",
			facts: facts(check("test", model.CheckFailure), check("test", model.CheckSuccess)),
			want:  model.GateResult{Status: model.GatePass, Message: `check "test" passed`},
		},
		{
			name:  "an unknown state fails closed",
			facts: facts(check("test", "weird")),
			want:  model.GateResult{Status: model.GateFail, Message: `check "test" failed`, Who: who},
		},
		{
			name:   "named check not reported yet",
			params: "{checks: [test, lint]}",
			facts:  facts(check("test", model.CheckSuccess), check("deploy", model.CheckFailure)),
			want:   model.GateResult{Status: model.GatePending, Message: `waiting for "lint"`, Who: who},
		},
		{
			name:   "named checks passed, others ignored",
			params: "{checks: [test, lint]}",
			facts:  facts(check("test", model.CheckSuccess), check("lint", model.CheckSuccess), check("deploy", model.CheckFailure)),
			want:   model.GateResult{Status: model.GatePass, Message: "all 2 checks passed"},
		},
		{
			name:   "one named check as a string",
			params: "{checks: test}",
			facts:  facts(check("test", model.CheckSuccess), check("lint", model.CheckPending)),
			want:   model.GateResult{Status: model.GatePass, Message: `check "test" passed`},
		},
		{
			name:   "expect failure, failing",
			params: "{expect: failure}",
			facts:  facts(check("test", model.CheckFailure)),
			want:   model.GateResult{Status: model.GatePass, Message: "CI on abc1234 is failing, as expected"},
		},
		{
			name:   "expect failure, passing",
			params: "{expect: failure}",
			facts:  facts(check("test", model.CheckSuccess)),
			want: model.GateResult{Status: model.GateFail,
				Message: "CI on abc1234 is passing; expected it to be failing", Who: who},
		},
		{
			name:   "expect failure, still running",
			params: "{expect: failure}",
			facts:  facts(check("test", model.CheckPending)),
			want: model.GateResult{Status: model.GatePending,
				Message: "CI on abc1234 is pending; expected it to be failing", Who: who},
		},
		{
			name:   "expect pending, running",
			params: "{expect: pending}",
			facts:  facts(check("test", model.CheckPending)),
			want:   model.GateResult{Status: model.GatePass, Message: "CI on abc1234 is pending, as expected"},
		},
		{
			name:   "expect pending, done",
			params: "{expect: pending}",
			facts:  facts(check("test", model.CheckSuccess)),
			want: model.GateResult{Status: model.GateFail,
				Message: "CI on abc1234 is passing; expected it to be pending", Who: who},
		},
		{
			name:  "no pull request fails closed",
			facts: &model.Facts{},
			want: model.GateResult{Status: model.GateError,
				Message: `there is no pull request to check; "ci_status" works only on pull requests`},
		},
		{
			name:  "no head commit fails closed",
			facts: facts(func(pr *model.PullRequest) { pr.HeadSHA = "" }),
			want:  model.GateResult{Status: model.GateError, Message: "the head commit of the pull request is unknown"},
		},
	}
	assertEvaluates(t, CIStatus{}, "ci_status", "{}", tests)
}

func TestCIStatusParams(t *testing.T) {
	tests := []paramCase{
		{name: "bad expect", params: "{expect: green}", want: `t.yaml:1:10: "expect" of check "ci_status" must be one of "success", "failure", "pending", not "green" [gate]`},
		{name: "empty checks", params: "{checks: []}", want: `t.yaml:1:10: "checks" of check "ci_status" must name at least one check [gate]`},
		{name: "checks of mappings", params: "{checks: [{a: b}]}", want: `t.yaml:1:11: items of "checks" of check "ci_status" must be strings [gate]`},
	}
	assertRefuses(t, CIStatus{}, "ci_status", false, tests)
}

// run adds a check run name in state, reported by app in check suite suite.
func run(name, state, app, suite string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Checks = append(pr.Checks, model.CheckResult{Name: name, Kind: "check_run", State: state, App: app, Suite: suite})
	}
}

// job adds a check run name in state, a job of Actions workflow workflow run in suite.
func job(workflow, name, state, suite string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Checks = append(pr.Checks, model.CheckResult{Name: name, Kind: "check_run", State: state,
			App: "actions", Suite: suite, Workflow: workflow})
	}
}

// commitStatus adds a commit status context in state.
func commitStatus(context, state string) prOpt {
	return func(pr *model.PullRequest) {
		pr.Checks = append(pr.Checks, model.CheckResult{Name: context, Kind: "status", State: state})
	}
}

// TestCIStatusSameName checks that every check bearing a name counts: only a re-run of the
// same check (same app, same suite) replaces an earlier result, as in GitHub's rollup.
func TestCIStatusSameName(t *testing.T) {
	const who = "CI on abc1234"
	failed := func(name string) model.GateResult {
		return model.GateResult{Status: model.GateFail, Message: `check "` + name + `" failed`, Who: who}
	}
	passed := func(name string) model.GateResult {
		return model.GateResult{Status: model.GatePass, Message: `check "` + name + `" passed`}
	}
	tests := []gateCase{
		{
			name:  "a passing status does not hide a failed check run of the same name",
			facts: facts(commitStatus("ci", model.CheckSuccess), run("ci", model.CheckFailure, "app-1", "suite-1")),
			want:  failed("ci"),
		},
		{
			name:  "nor when the check run came first",
			facts: facts(run("ci", model.CheckFailure, "app-1", "suite-1"), commitStatus("ci", model.CheckSuccess)),
			want:  failed("ci"),
		},
		{
			name:   "nor when the name is asked for",
			params: "{checks: [ci]}",
			facts:  facts(run("ci", model.CheckFailure, "app-1", "suite-1"), commitStatus("ci", model.CheckSuccess)),
			want:   failed("ci"),
		},
		{
			name:  "a passing check run does not hide a failed status of the same name",
			facts: facts(commitStatus("ci", model.CheckFailure), run("ci", model.CheckSuccess, "app-1", "suite-1")),
			want:  failed("ci"),
		},
		{
			name:  "a pending check run of the same name keeps a passing status waiting",
			facts: facts(commitStatus("ci", model.CheckSuccess), run("ci", model.CheckPending, "app-1", "suite-1")),
			want:  model.GateResult{Status: model.GatePending, Message: `waiting for "ci"`, Who: who},
		},
		{
			name:  "two apps, one failed",
			facts: facts(run("build", model.CheckFailure, "app-1", "suite-1"), run("build", model.CheckSuccess, "app-2", "suite-2")),
			want:  failed("build"),
		},
		{
			name:  "two apps, the failed one last",
			facts: facts(run("build", model.CheckSuccess, "app-2", "suite-2"), run("build", model.CheckFailure, "app-1", "suite-1")),
			want:  failed("build"),
		},
		{
			name:  "a re-run in the same suite replaces the failure",
			facts: facts(run("build", model.CheckFailure, "app-1", "suite-1"), run("build", model.CheckSuccess, "app-1", "suite-1")),
			want:  passed("build"),
		},
		{
			name:  "a re-run in the same suite replaces the success",
			facts: facts(run("build", model.CheckSuccess, "app-1", "suite-1"), run("build", model.CheckFailure, "app-1", "suite-1")),
			want:  failed("build"),
		},
		{
			name:  "same app, another suite: both count",
			facts: facts(run("build", model.CheckFailure, "app-1", "suite-1"), run("build", model.CheckSuccess, "app-1", "suite-2")),
			want:  failed("build"),
		},
		{
			name: "a re-run replaces only its own check",
			facts: facts(run("build", model.CheckFailure, "app-1", "suite-1"), run("build", model.CheckFailure, "app-2", "suite-2"),
				run("build", model.CheckSuccess, "app-1", "suite-1")),
			want: failed("build"),
		},
		{
			name:  "the latest status of a context counts",
			facts: facts(commitStatus("ci", model.CheckFailure), commitStatus("ci", model.CheckSuccess)),
			want:  passed("ci"),
		},
		{
			name: "all of them passed",
			facts: facts(commitStatus("ci", model.CheckSuccess), run("ci", model.CheckSuccess, "app-1", "suite-1"),
				run("ci", model.CheckSuccess, "app-2", "suite-2")),
			want: passed("ci"),
		},
	}
	assertEvaluates(t, CIStatus{}, "ci_status", "{}", tests)
}

// TestCIStatusByWorkflow checks that `workflows` names Actions workflows: the jobs of the
// workflow's runs count, not check runs or statuses that merely bear the workflow's name.
func TestCIStatusByWorkflow(t *testing.T) {
	const who = "CI on abc1234"
	tests := []gateCase{
		{
			name:   "every job passed",
			params: "{workflows: ci}",
			facts:  facts(job("ci", "test", model.CheckSuccess, "s1"), job("ci", "lint", model.CheckSuccess, "s1")),
			want:   model.GateResult{Status: model.GatePass, Message: `workflow "ci" passed`},
		},
		{
			name:   "one job failed",
			params: "{workflows: ci}",
			facts:  facts(job("ci", "test", model.CheckSuccess, "s1"), job("ci", "lint", model.CheckFailure, "s1")),
			want:   model.GateResult{Status: model.GateFail, Message: `workflow "ci" failed`, Who: who},
		},
		{
			name:   "a status named after the workflow is not the workflow",
			params: "{workflows: ci}",
			facts:  facts(commitStatus("ci", model.CheckSuccess), run("ci", model.CheckSuccess, "app-1", "suite-1")),
			want:   model.GateResult{Status: model.GatePending, Message: `waiting for "ci"`, Who: who},
		},
		{
			name:   "two runs of the workflow (two suites), one failed",
			params: "{workflows: ci}",
			facts:  facts(job("ci", "test", model.CheckSuccess, "s1"), job("ci", "test", model.CheckFailure, "s2")),
			want:   model.GateResult{Status: model.GateFail, Message: `workflow "ci" failed`, Who: who},
		},
		{
			name:   "a re-run of the failed job",
			params: "{workflows: ci}",
			facts:  facts(job("ci", "test", model.CheckFailure, "s1"), job("ci", "test", model.CheckSuccess, "s1")),
			want:   model.GateResult{Status: model.GatePass, Message: `workflow "ci" passed`},
		},
		{
			name:   "other workflows do not count",
			params: "{workflows: [ci, lint]}",
			facts: facts(job("ci", "test", model.CheckSuccess, "s1"), job("lint", "lint", model.CheckSuccess, "s2"),
				job("deploy", "test", model.CheckFailure, "s3")),
			want: model.GateResult{Status: model.GatePass, Message: "all 2 workflows passed"},
		},
	}
	assertEvaluates(t, CIStatus{}, "ci_status", "", tests)
}

// The action's own commit statuses (settings.status_check) are not CI: a ci_status over
// every check ignores them — else a pipeline would wait on its own pending status — and
// one may not name them.
func TestCIStatusIgnoresTheActionsOwnStatuses(t *testing.T) {
	c, errs := compile(t, CIStatus{}, "ci_status", "{}")
	require.Empty(t, errs)
	got := c.Evaluate(facts(check("test", model.CheckSuccess), commitStatus("pipeline-action/review", model.CheckPending),
		commitStatus("pipeline-action/merge", model.CheckFailure)))
	assert.Equal(t, model.GateResult{Check: "ci_status", Status: model.GatePass, Message: `check "test" passed`}, got)

	got = c.Evaluate(facts(commitStatus("pipeline-action/review", model.CheckSuccess)))
	assert.Equal(t, model.GatePending, got.Status, "the action's own status alone is no CI at all")

	_, errs = compile(t, CIStatus{}, "ci_status", "{checks: [test, pipeline-action/review]}")
	assert.Equal(t, `t.yaml:1:10: "checks" of check "ci_status" names "pipeline-action/review", a status the action itself writes (settings.status_check), which no gate waits on [gate]`,
		lang.ErrorList(errs).Error())
}
