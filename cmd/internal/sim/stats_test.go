package sim

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/cli"
)

// statsOf runs `pipeline-action stats` with args against the fake of sim.
func statsOf(sim *simulation, args ...string) (code int, stdout, stderr string) {
	env := map[string]string{"GITHUB_TOKEN": sim.fake.Token("alice"), "GITHUB_REPOSITORY": "acme/widgets",
		"GITHUB_API_URL": sim.fake.URL + "/api/v3", "GITHUB_GRAPHQL_URL": sim.fake.URL + "/api/graphql"}
	var out, errOut bytes.Buffer
	code = cli.Run(cli.CLI(Main, Usage), append([]string{"stats"}, args...), nil, &out, &errOut, func(k string) string { return env[k] })
	return code, out.String(), errOut.String()
}

// stats over the state branch the scenario stats built (its scenario.yaml tells the
// story): every figure, in two GraphQL queries (the listing, and the two subjects).
func TestStatsOverAScenario(t *testing.T) {
	sim := playDir(t, "stats")
	sim.fake.ResetStats()
	code, out, errOut := statsOf(sim, "--since", "30d", "--until", "2026-01-06", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, errOut)
	assert.Equal(t, map[string]int{"graphql": 2}, sim.fake.Stats(), "one listing, one batch of subjects")
	type stage struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Wait   string `json:"waits_for"`
		Visits int    `json:"visits"`
		Median int    `json:"median_seconds"`
		P90    int    `json:"p90_seconds"`
	}
	var rep struct {
		Subjects  int `json:"subjects"`
		Pipelines []struct {
			Name                                 string
			Started, Finished, Completed, Failed int
			Cancelled, Open, Loops               int
			Errors                               int `json:"agent_errors"`
			Retries, Escalations                 int
			Waiting                              map[string]int `json:"waiting_seconds"`
			Stages                               []stage
		} `json:"pipelines"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, 2, rep.Subjects)
	require.Len(t, rep.Pipelines, 1, out)
	p := rep.Pipelines[0]
	assert.Equal(t, "review", p.Name)
	assert.Equal(t, []int{2, 2, 1, 0, 1, 0}, []int{p.Started, p.Finished, p.Completed, p.Failed, p.Cancelled, p.Open})
	assert.Equal(t, []int{1, 3, 2, 1}, []int{p.Loops, p.Errors, p.Retries, p.Escalations},
		"loops; errors: #7's retried, #8's retried and its last; escalations")
	assert.Equal(t, []stage{
		{"build", "agent", "agents", 3, 600, 1800},
		{"ci", "gate", "ci", 2, 0, 600},
		{"approve", "human", "people", 1, 7200, 7200},
	}, p.Stages)
	assert.Equal(t, map[string]int{"agents": 3000, "ci": 600, "people": 10800}, p.Waiting, "people: 2h at approve, 1h escalated")

	code, md, errOut := statsOf(sim, "--until", "2026-01-06T00:00:00Z", "--format", "markdown")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, md, "| build | agent | agents | 3 | 10m | 30m | 50m |")
	assert.Contains(t, md, "```mermaid\npie showData\n")
	assert.Contains(t, md, "    x-axis [\"build\", \"ci\", \"approve\"]\n    y-axis \"minutes\"\n    bar [30, 10, 120]\n    bar [10, 0, 120]\n```\n")
	assert.Contains(t, md, "in 2 GraphQL queries.")

	// A window after the runs: nothing started or finished, nothing open.
	code, text, errOut := statsOf(sim, "--since", "12h", "--until", "2026-01-07")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "No run moved in this window.")
	code, text, _ = statsOf(sim, "--until", "2026-01-06")
	require.Equal(t, 0, code)
	assert.Contains(t, text, "review: 2 runs started, 2 finished (1 completed, 0 failed, 1 cancelled), 0 open\n")
	assert.Contains(t, text, "  loops 1, agent errors 3 (retried 2), escalations 1\n")
	assert.True(t, strings.HasPrefix(text, "Pipeline statistics of acme/widgets, 2025-12-07 00:00 → 2026-01-06 00:00 UTC, 2 subjects."), text)
}

func TestStatsUsage(t *testing.T) {
	sim := playDir(t, "stats")
	for args, want := range map[string]string{
		"--since soon":    "--since is a positive duration",
		"--format xml":    "--format is text, json or markdown",
		"--until someday": "--until is a date",
	} {
		code, _, errOut := statsOf(sim, strings.Fields(args)...)
		assert.Equal(t, 2, code, args)
		assert.Contains(t, errOut, want, args)
	}
}

// The sample outputs of docs/stats.md are what stats prints for the scenario stats.
func TestStatsDocsSamples(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/stats.md")
	require.NoError(t, err)
	sim := playDir(t, "stats")
	_, text, _ := statsOf(sim, "--until", "2026-01-06")
	_, md, _ := statsOf(sim, "--until", "2026-01-06", "--format", "markdown")
	_, sample, ok := strings.Cut(string(doc), "Text (the default), for the scenario `cmd/internal/sim/testdata/scenarios/stats`:\n\n```\n")
	require.True(t, ok, "the text sample")
	sample, _, _ = strings.Cut(sample, "```\n")
	head := regexp.MustCompile("state branch at [0-9a-f]{7}")
	assert.Equal(t, head.ReplaceAllString(text, "HEAD"), head.ReplaceAllString(sample, "HEAD"), "the head commit aside")
	for _, chart := range strings.Split(string(doc), "```mermaid\n")[1:] {
		chart, _, _ = strings.Cut(chart, "```\n")
		assert.Contains(t, md, "```mermaid\n"+chart+"```\n")
	}
	assert.Equal(t, 3, strings.Count(string(doc), "```mermaid\n")+1, "two charts")
}

// A step whose event is lost made no request: the requests of the step before it are not
// counted again as its own (the property test read them as made after a close).
func TestLostEventStepCountsNoCalls(t *testing.T) {
	sim, out := newSim(t, devsPR+`  - close_pr: {pr: 7, deliver: false}
`, "")
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	require.Zero(t, failed, out.String())
	assert.Empty(t, sim.fake.Calls(), "the lost close made no request")
}
