package cli

import (
	"bytes"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doctor runs the doctor command against the harness's fake with token.
func (h *harness) doctor(token string, args ...string) (int, string, string) {
	h.T.Helper()
	env := runtest.Command(h.Fake, token)
	var out, errOut bytes.Buffer
	code := Main(append([]string{"doctor"}, args...), nil, &out, &errOut, func(k string) string { return env[k] })
	return code, out.String(), errOut.String()
}

// docWorkflow is the README's workflow, which runs the action.
func docWorkflow(t *testing.T) string {
	b, err := os.ReadFile("../../../docs/setup/pipelines-nokey.yml")
	require.NoError(t, err)
	return string(b)
}

// newDoctorHarness is a harness whose default branch holds config and the README's
// workflow, and workflows (path → text) besides.
func newDoctorHarness(t *testing.T, config string, workflows map[string]string) *harness {
	h := newHarness(t, config)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/pipelines.yml", docWorkflow(t))
	for p, text := range workflows {
		h.Fake.SetFile("acme/widgets", "main", p, text)
	}
	return h
}

// assertReadOnly fails when a call since the last ResetStats could have changed anything.
func assertReadOnly(t *testing.T, f *ghfake.Server) {
	t.Helper()
	calls := f.Calls()
	require.NotEmpty(t, calls, "doctor read nothing")
	for _, c := range calls {
		switch {
		case c.Kind == "graphql":
			assert.False(t, c.Mutation, "a GraphQL mutation: %+v", c)
		default:
			assert.Equal(t, http.MethodGet, c.Method, "a REST call that is not a read: %+v", c)
		}
	}
	assert.Empty(t, f.Unexpected())
}

func TestDoctorAllHoldsAndWritesNothing(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.OpenPR7()
	h.Fake.SetStatus("acme/widgets", 7, "ci/build", "success")
	h.Fake.ResetStats()

	code, out, errOut := h.doctor(h.Fake.BotToken())
	assert.Equal(t, 0, code, out+errOut)
	assert.NotContains(t, out, "\nproblem ")
	for _, want := range []string{
		"ok          repository acme/widgets, default branch main",
		"ok          config .github/pipelines.yaml on main validates: 1 pipeline",
		"ok          token scope `statuses: read`: GitHub answered GET /repos/{owner}/{repo}/commits/main/status",
		"ok          merge method squash: allowed by the repository's settings",
		"ok          state branch pipeline-action/state: no branch protection",
		"unverified  token scope `contents: write`",
		"ok          rulesets on pipeline-action/state: no rule restricts creating, updating or deleting it",
		"no problem.",
	} {
		assert.Contains(t, out, want)
	}
	assertReadOnly(t, h.Fake)
	writes := 0
	for _, c := range h.Fake.Calls() {
		if c.Method != http.MethodGet && c.Kind != "graphql" {
			writes++
		}
	}
	assert.Zero(t, writes)
}

// The assertion of read-only calls catches a write: it is not vacuous.
func TestDoctorReadOnlyAssertionSeesWrites(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.Fake.ResetStats()
	h.OpenPR7()
	mutations, writes := 0, 0
	for _, c := range h.Fake.Calls() {
		if c.Mutation {
			mutations++
		}
		if c.Kind != "graphql" && c.Method != http.MethodGet {
			writes++
		}
	}
	assert.Positive(t, mutations+writes, "a run writes, and the fake records it")
}

func TestDoctorNamesAMissingReadScope(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	token := h.Fake.BotToken()
	h.Fake.Grant(token, ghfake.Permissions{"contents": "write", "pull_requests": "write", "issues": "write",
		"checks": "read", "actions": "write"})
	h.Fake.ResetStats()
	code, out, _ := h.doctor(token)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     token scope `statuses: read` (commit statuses among a pull request's checks): GET /repos/{owner}/{repo}/commits/main/status:")
	assert.Contains(t, out, "the token lacks `statuses: read`")
	assert.Contains(t, out, "fix: grant `statuses: read`")
	assert.Contains(t, out, "ok          token scope `checks: read`")
	assert.Contains(t, out, "\n1 problem.\n")
	assertReadOnly(t, h.Fake)
}

func TestDoctorMergeMethodTheRepositoryForbids(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.Fake.SetProtection("acme/widgets", "main", ghfake.Protection{MergeMethods: []string{"merge", "rebase"}})
	code, out, _ := h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Regexp(t, `problem     merge method squash, used at \.github/pipelines\.yaml:\d+:\d+ \(auto-merge\.merge\): the repository's settings do not allow it`, out)
	assert.Contains(t, out, "fix: allow squash merging in Settings → General → Pull Requests, or set merge_pr's method: to one the repository allows (merge, rebase)")
}

func TestDoctorProtectedStateBranch(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.OpenPR7()
	h.Fake.SetProtection("acme/widgets", "pipeline-action/state", ghfake.Protection{RequiredReviews: 1})
	code, out, _ := h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     state branch pipeline-action/state is protected")
}

// A ruleset that restricts the state branch is a problem naming the ruleset and its rules,
// whether or not the branch exists yet; GitHub does not say whether the action may bypass it.
func TestDoctorRulesetOnTheStateBranch(t *testing.T) {
	for _, exists := range []bool{true, false} {
		h := newDoctorHarness(t, exampleYAML(t), nil)
		if exists {
			code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
			require.Equal(t, 0, code, log)
			require.Contains(t, h.Fake.Branches("acme/widgets"), "pipeline-action/state")
		}
		h.Fake.RestrictBranch("acme/widgets", "pipeline-action/state")
		h.Fake.ResetStats()
		code, out, _ := h.doctor(h.Fake.BotToken())
		assert.Equal(t, 0, code, out)
		assert.Contains(t, out, "unverified  rulesets on pipeline-action/state: ruleset 1 of acme/widgets has the rules creation, update: "+
			"the action writes the state branch only if its identity may bypass the ruleset (GitHub does not show who may)")
		assert.Contains(t, out, "check that the action's app is on the ruleset's bypass list")
		assert.NotContains(t, out, "ok          rulesets on")
		assertReadOnly(t, h.Fake)
	}
}

func TestDoctorReportsConfigErrorsWithTheirPosition(t *testing.T) {
	h := newHarness(t, "version: 1\npipelines:\n  p:\n    stages:\n      - id: a\n        type: nope\n")
	code, out, _ := h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Regexp(t, `problem     config: \.github/pipelines\.yaml:6:\d+: `, out)
	assert.Contains(t, out, "unverified  the checks that depend on the config")

	h = newHarness(t, "")
	code, out, _ = h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     no config on main: .github/pipelines.yaml or .github/pipelines/*.yaml")
}

func TestDoctorUsage(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	code, _, errOut := h.doctor(h.Fake.BotToken(), "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "takes no arguments")
	code, _, errOut = h.doctor("", "--pr", "7")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no token")
	code, _, errOut = h.doctor(h.Fake.BotToken(), "--pr", "-1")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--pr must be")
	var out bytes.Buffer
	assert.Equal(t, 0, Main([]string{"doctor", "--help"}, nil, &out, &out, func(string) string { return "" }))
	assert.True(t, strings.HasPrefix(out.String(), "usage: pipeline-action doctor"))
}

func TestDoctorChecksTheWorkflows(t *testing.T) {
	dir := "../../../examples/agent-verdict-loop/"
	config, err := os.ReadFile(dir + "pipelines.yaml")
	require.NoError(t, err)
	agent, err := os.ReadFile(dir + "agent-implement.yml")
	require.NoError(t, err)
	h := newDoctorHarness(t, string(config), map[string]string{".github/workflows/agent-implement.yml": string(agent)})
	// The documented workflow names agent-implement; left out, the doctor says so.
	unlisted := strings.Replace(docWorkflow(t), "workflows: [ci, agent-implement]", "workflows: [ci]", 1)
	require.NotEqual(t, docWorkflow(t), unlisted)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/pipelines.yml", unlisted)
	code, out, _ := h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "ok          agent implementer: .github/workflows/agent-implement.yml on main takes workflow_dispatch with the inputs the action sends")
	assert.Contains(t, out, `problem     workflow_run does not list "agent-implement" (an agent's workflow, whose end the action must see)`)
	assert.Contains(t, out, `fix: add "agent-implement" to `+"`on.workflow_run.workflows`"+` of .github/workflows/pipelines.yml`)
	assert.Contains(t, out, "ok          event pull_request_target")
	assert.Contains(t, out, "\n1 problem.\n")

	// Listed, it holds; an agent workflow without an input the action sends is refused.
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/pipelines.yml", docWorkflow(t))
	code, out, _ = h.doctor(h.Fake.BotToken())
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, `ok          workflow_run lists "agent-implement"`)
	noNonce := strings.Replace(string(agent), "      nonce:", "      other:", 1)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/agent-implement.yml", noNonce)
	code, out, _ = h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     agent implementer: .github/workflows/agent-implement.yml on main does not declare the inputs nonce")

	// An agent workflow whose run-name does not name the run, stage and attempt.
	assert.Contains(t, out, "ok          agent implementer: the run-name of .github/workflows/agent-implement.yml on main names the run, stage and attempt")
	noTitle := strings.Replace(string(agent), "run-name:", "# run-name:", 1)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/agent-implement.yml", noTitle)
	code, out, _ = h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     agent implementer: the run-name of .github/workflows/agent-implement.yml on main does not name the run, stage and attempt")

	// Without the file, and without any workflow running the action.
	h = newHarness(t, string(config))
	code, out, _ = h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     no workflow on main runs the action")
}

func TestDoctorNeedsTheSweepForDeadlines(t *testing.T) {
	config, err := os.ReadFile("../../../examples/human-timeout/pipelines.yaml")
	require.NoError(t, err)
	h := newDoctorHarness(t, string(config), nil)
	code, out, _ := h.doctor(h.Fake.BotToken())
	assert.Equal(t, 1, code, out)
	assert.Regexp(t, `problem     sweep: a pipeline has deadlines \(\.github/pipelines\.yaml:\d+:\d+ `, out)
	sweep, err := os.ReadFile("../../../docs/setup/sweep-nokey.yml")
	require.NoError(t, err)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/sweep.yml", string(sweep))
	code, out, _ = h.doctor(h.Fake.BotToken())
	assert.Contains(t, out, "ok          sweep: .github/workflows/sweep.yml runs command: sweep on a schedule")
	assert.Equal(t, 0, code, out)
}

func TestDoctorReadsAPullRequestAndEvaluatesItsRuns(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.OpenPR7()
	h.Fake.SetStatus("acme/widgets", 7, "ci/build", "success")
	h.Fake.Review("acme/widgets", 7, "alice", "approved", "")
	h.Fake.ResetStats()
	code, out, _ := h.doctor(h.Fake.BotToken(), "--pr", "7")
	assert.Equal(t, 0, code, out)
	assert.Regexp(t, `ok          #7: the query every run makes answers: open, head \S+ at [0-9a-f]{7}, base main, mergeable \S+ \(\S+\), checks \[ci/build=\S+\], reviews \[alice=APPROVED\], labels \[\]`, out)
	// Approved and green: the run would merge, and doctor only says so.
	assert.Contains(t, out, "ok          #7: run auto-merge/7/1 (auto-merge) would be")
	assert.Regexp(t, `ok          #7: would ask for merge\S* \(auto-merge/7/1/merge/`, out)
	assertReadOnly(t, h.Fake)
	assert.Equal(t, "open", h.Fake.PR("acme/widgets", 7).State, "not merged")

	// Without statuses: read, the query every run makes is refused, and doctor says why.
	token := h.Fake.BotToken()
	h.Fake.Grant(token, ghfake.Permissions{"contents": "write", "pull_requests": "write", "checks": "read", "actions": "write"})
	code, out, _ = h.doctor(token, "--pr", "7")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "problem     #7: the query every run makes fails:")
	assert.Contains(t, out, "statusCheckRollup")
}

// A doctor step whose expectation does not hold fails the scenario: the step checks.
func TestDoctorStepFailsWhenItsExpectationDoesNot(t *testing.T) {
	src, err := os.ReadFile("../../../examples/doctor/scenario-merge-method.yaml")
	require.NoError(t, err)
	dir := t.TempDir()
	for _, f := range []string{"pipelines.yaml", "pipelines-workflow.yml", "agent-implement.yml"} {
		b, err := os.ReadFile("../../../examples/doctor/" + f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(dir+"/"+f, b, 0o600))
	}
	wrong := strings.Replace(string(src), "ok: false", "ok: true", 1)
	require.NoError(t, os.WriteFile(dir+"/scenario.yaml", []byte(wrong), 0o600))
	var out, errOut bytes.Buffer
	code := Main([]string{"simulate", dir}, nil, &out, &errOut, func(string) string { return "" })
	assert.Equal(t, 1, code, out.String()+errOut.String())
	assert.Contains(t, out.String(), "✗ doctor ok: want true, found exit code 1")
}

// As a workflow step: the action's command input picks doctor, its token and pr inputs
// are read, and the state key is masked before anything is printed.
func TestDoctorAsAWorkflowStep(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.OpenPR7()
	env := map[string]string{"GITHUB_ACTIONS": "true", "INPUT_COMMAND": "doctor", "INPUT_TOKEN": h.Fake.BotToken(), "INPUT_PR": "7",
		"INPUT_STATE_KEY": "a-state-key-of-the-test-0123", "GITHUB_REPOSITORY": "acme/widgets",
		"GITHUB_API_URL": h.Fake.URL + "/api/v3", "GITHUB_GRAPHQL_URL": h.Fake.URL + "/api/graphql"}
	var out, errOut bytes.Buffer
	code := Main(nil, nil, &out, &errOut, func(k string) string { return env[k] })
	assert.Equal(t, 0, code, out.String()+errOut.String())
	assert.True(t, strings.HasPrefix(out.String(), "::add-mask::a-state-key-of-the-test-0123\n"), out.String())
	assert.Contains(t, out.String(), "ok          #7: the query every run makes answers: open")
	env["INPUT_PR"] = "seven"
	assert.Equal(t, 2, Main(nil, nil, &out, &errOut, func(k string) string { return env[k] }))
}

// A check's name and a label are chosen by whoever can push a workflow or label a pull
// request: doctor shows their control characters as '?', so that no escape sequence
// (clearing the screen, retitling the terminal) reaches the terminal that reads it.
func TestDoctorIsTerminalSafe(t *testing.T) {
	h := newDoctorHarness(t, exampleYAML(t), nil)
	h.OpenPR7()
	h.Fake.SetStatus("acme/widgets", 7, "ci\x1b[2J\x1b[H", "success")
	h.Fake.Label("acme/widgets", 7, "l\x1b]0;owned\x07\u009b", true)
	code, out, _ := h.doctor(h.Fake.BotToken(), "--pr", "7")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "ci?[2J?[H=")
	assert.Contains(t, out, "labels [l?]0;owned??]")
	assert.Equal(t, -1, strings.IndexFunc(out, func(r rune) bool { return r != '\n' && (r < 0x20 || r >= 0x7f && r < 0xa0) }),
		"a control character in %q", out)
}

// TestDoctorCountsWarnings checks that doctor loads the config as validate does, with
// the passes that only warn (an invocation skips them).
func TestDoctorCountsWarnings(t *testing.T) {
	const config = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: a, type: gate, conditions: [{check: ci_status}], on_pass: complete}
      - {id: b, type: gate, conditions: [{check: ci_status}]}
`
	h := newDoctorHarness(t, config, nil)
	_, out, errOut := h.doctor(h.Fake.BotToken())
	assert.Contains(t, out, "ok          config .github/pipelines.yaml on main validates: 1 pipeline, 1 warning (`pipeline-action validate` lists them)", out+errOut)
}
