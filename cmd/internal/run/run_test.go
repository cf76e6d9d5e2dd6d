package run

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
)

// harness is a fake GitHub with acme/widgets and the run path pointed at it.
type harness struct {
	*runtest.Harness
	// now is the runner's clock; nil: the machine's.
	now func() time.Time
}

func newHarness(t *testing.T, config string) *harness {
	t.Helper()
	h := &harness{}
	h.Harness = runtest.NewHarness(t, func(stdout, stderr io.Writer, getenv func(string) string) int {
		return testMainAt(h.now, nil, nil, stdout, stderr, getenv)
	})
	if config != "" {
		// The config is older than the subjects: a late start counts only a trigger that
		// began to hold strictly after it.
		h.Fake.SetClock(func() time.Time { return time.Now().Add(-time.Hour) })
		h.Fake.SetFile(runtest.Repo, "main", DefaultConfigPath, config)
		h.Fake.SetClock(time.Now)
	}
	return h
}

// botClient is a client of f as the action's identity, in acme/widgets.
func botClient(tb testing.TB, f *ghfake.Server) *ghapi.Client {
	tb.Helper()
	c, err := ghapi.New(ghapi.Options{Token: f.BotToken(), RESTURL: f.URL + "/api/v3", GraphQLURL: f.URL + "/api/graphql", Repository: runtest.Repo})
	require.NoError(tb, err)
	return c
}

// exampleConfig is the config of an example, the config most tests run with.
const exampleConfig = "../../../examples/auto-merge/pipelines.yaml"

func exampleYAML(t *testing.T) string { return runtest.Read(t, exampleConfig) }

func TestRunSetsOutputsAndSummary(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	code, log, outputs, summary := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	assert.Contains(t, outputs, "status<<")
	assert.Contains(t, outputs, "waiting")
	assert.Contains(t, outputs, "stage<<")
	assert.Contains(t, outputs, "ready")
	assert.Contains(t, summary, "needs 1 approving review")
	assert.NotContains(t, log, h.Fake.BotToken(), "the token is never printed")
}

func TestRunWithoutOutputFileLogsTheOutputs(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	code, log, outputs, summary := h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), func(env map[string]string) {
		delete(env, "GITHUB_OUTPUT")
		delete(env, "GITHUB_STEP_SUMMARY")
	})
	require.Equal(t, 0, code, log)
	assert.Empty(t, outputs)
	assert.Empty(t, summary)
	assert.Contains(t, log, "output status=waiting (GITHUB_OUTPUT is not set)")
	assert.Contains(t, log, "output stage=ready (GITHUB_OUTPUT is not set)")
	assert.Len(t, h.Fake.Comments("acme/widgets", 7), 1, "the work was done")
}

func TestRunWithUnwritableOutputFileWarns(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	dir := filepath.Join(h.Dir, "missing-dir")
	code, log, _, _ := h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), func(env map[string]string) {
		env["GITHUB_OUTPUT"] = filepath.Join(dir, "out")
		env["GITHUB_STEP_SUMMARY"] = filepath.Join(dir, "summary")
	})
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "::warning::pipeline-action: output status=waiting could not be written to GITHUB_OUTPUT")
	assert.Contains(t, log, "the job summary could not be written")
}

func TestOutputDelimiterIsFreshAndAbsentFromTheValue(t *testing.T) {
	a, err := outputDelimiter("x")
	require.NoError(t, err)
	b, err := outputDelimiter("x")
	require.NoError(t, err)
	assert.NotEqual(t, a, b)
	assert.True(t, strings.HasPrefix(a, "ghadelimiter_"))
}

// An app's login is "<slug>[bot]" in webhooks, REST and on GitHub's pages, and "<slug>"
// in GraphQL's author { login }: a trigger written as users see it matches the app, and
// not a person who took the app's name.
func TestRunTriggerAuthorMatchesAnAppAsGitHubShowsIt(t *testing.T) {
	cfg := "version: 1\npipelines:\n  deps:\n    trigger: {event: pull_request.opened, conditions: {author: \"dependabot[bot]\"}}\n" +
		"    stages:\n      - {id: m, type: action, action: merge_pr}\n"
	h := newHarness(t, cfg)
	h.Fake.AddUser("dependabot", "write")
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dependabot[bot]"}))
	require.Equal(t, 0, code, log)
	assert.True(t, h.Fake.PR("acme/widgets", 7).Merged, log)

	code, log, _, _ = h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 8, Author: "dependabot"}))
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, `author is "dependabot", not "dependabot[bot]"`)
	assert.False(t, h.Fake.PR("acme/widgets", 8).Merged)
}

// A split config loads as validate loads it: a name defined in two files is an error at
// the second, annotated on that file, and nothing runs.
func TestRunSplitConfigDuplicateNameIsAnnotated(t *testing.T) {
	p := "pipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: m, type: action, action: merge_pr}\n"
	h := newHarness(t, "version: 1\n"+p)
	h.Fake.SetFile("acme/widgets", "main", ".github/pipelines/more.yaml", "\n"+p)
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	assert.Equal(t, 1, code)
	assert.Contains(t, log, "::error col=3,file=.github/pipelines/more.yaml,line=3::")
	assert.Contains(t, log, "defined in two files")
	assert.False(t, h.Fake.PR("acme/widgets", 7).Merged)
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7))
}

func TestRunInvalidConfigAnnotatesAndWritesNothing(t *testing.T) {
	h := newHarness(t, "version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: a, type: gate, conditions: [{check: human_aproved}]}\n")
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	assert.Equal(t, 1, code)
	assert.Contains(t, log, "::error col=50,file=.github/pipelines.yaml,line=6::unknown check")
	assert.Contains(t, log, `did you mean "human_approved"`)
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7))
	assert.Equal(t, map[string]int{"graphql": 1}, h.Fake.Stats())
}

func TestRunCorruptStateCommentIsLeftAlone(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	log := h.OpenPR7()
	comments := h.Fake.Comments("acme/widgets", 7)
	require.Len(t, comments, 1)

	// A newer version of the action wrote a marker this one cannot read (or someone with
	// the bot's token wrote one in its name): the next run must not start over.
	broken := fmt.Sprintf("### pipeline-action\n<!-- pipeline-action:state v5 %d abc !!!not-base64!!! -->", comments[0].ID)
	bot := botClient(t, h.Fake)
	require.NoError(t, bot.UpdateComment(t.Context(), comments[0].ID, broken))
	code, log, _, _ := h.Deliver(h.Fake.Review("acme/widgets", 7, "alice", "approved", ""))
	assert.Equal(t, 1, code)
	assert.Contains(t, log, "left as it is")
	after := h.Fake.Comments("acme/widgets", 7)
	require.Len(t, after, 1)
	assert.Equal(t, broken, after[0].Body)
	assert.False(t, h.Fake.PR("acme/widgets", 7).Merged)
}

func TestRunReadsConfigFromDefaultBranchOnly(t *testing.T) {
	h := newHarness(t, "") // no config on main
	ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	// The PR's own branch carries a config that would merge it at once.
	h.Fake.SetFile("acme/widgets", "feat/x", DefaultConfigPath, "version: 1\npipelines:\n  yolo:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: m, type: action, action: merge_pr}\n")
	h.Fake.SetFile("acme/widgets", "feat/x", ".github/pipelines/yolo.yaml", "version: 1\npipelines:\n  yolo2:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: m, type: action, action: merge_pr}\n")
	code, log, _, _ := h.Deliver(ev)
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "no .github/pipelines.yaml or .github/pipelines/*.yaml on main")
	assert.False(t, h.Fake.PR("acme/widgets", 7).Merged)
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7))
}

// A GitHub that never answers does not hold the job: each request gives up after the
// request timeout, the invocation after its timeout, and the job fails saying so.
func TestRunAgainstAStalledGitHubFails(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	url := runtest.StalledServer(t)
	ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
	for _, tt := range []struct {
		name, timeout, requestTimeout, want string
	}{
		{"request timeout", "", "200ms", "GitHub did not answer within 200ms"},
		{"invocation timeout", "300ms", "", "stopped after 300ms (the `timeout` input) because GitHub answered too slowly or not at all"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			code, log, outputs, _ := h.DeliverWith(ev, func(env map[string]string) {
				env["GITHUB_API_URL"], env["GITHUB_GRAPHQL_URL"] = url+"/api/v3", url+"/api/graphql"
				env["INPUT_TIMEOUT"], env["INPUT_REQUEST_TIMEOUT"] = tt.timeout, tt.requestTimeout
			})
			assert.Less(t, time.Since(start), 10*time.Second)
			assert.Equal(t, 1, code, log)
			assert.Contains(t, log, "::error::")
			assert.Contains(t, log, tt.want)
			assert.Empty(t, outputs)
		})
	}
}

func TestRunRefusesBadTimeouts(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
	for _, in := range []string{"INPUT_TIMEOUT", "INPUT_REQUEST_TIMEOUT"} {
		code, log, _, _ := h.DeliverWith(ev, func(env map[string]string) { env[in] = "soon" })
		assert.Equal(t, 2, code)
		assert.Contains(t, log, `"soon" is not a positive duration such as 30s or 5m`)
	}
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7))
}
