package run

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
)

// The job summary shows the state comment as people read it — its chart in a mermaid
// block, never the hidden state — and the API calls the invocation made, the figures the
// job log ends with.
func TestJobSummaryShowsTheCommentTheChartAndTheCalls(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	code, log, _, summary := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	assert.Contains(t, summary, "## #7\n\n### pipeline-action\n")
	assert.Contains(t, summary, "**auto-merge** · waiting at `ready`")
	assert.Contains(t, summary, "```mermaid\nflowchart")
	assert.NotContains(t, summary, "<!-- pipeline-action:", "no marker, no hidden state")

	logged := regexp.MustCompile(`pipeline-action: API calls: (.*)`).FindStringSubmatch(log)
	require.Len(t, logged, 2, log)
	assert.Contains(t, summary, "### API calls\n\n")
	assert.Contains(t, summary, "to GitHub ("+strings.TrimSpace(logged[1])+"), ", "the figures of the job log")
	total := 0
	for _, part := range strings.Split(strings.TrimSpace(logged[1]), ", ") {
		_, count, _ := strings.Cut(part, " ")
		n, err := strconv.Atoi(count)
		require.NoError(t, err, part)
		total += n
	}
	assert.Contains(t, summary, "\n"+strconv.Itoa(total)+" requests to GitHub (")
}

// When the comment had no room for the charts (its one-line-per-run form), the summary
// shows them after it.
func TestJobSummaryAddsChartsTheCommentLeftOut(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{{Name: "review", Stages: []*lang.Stage{{ID: "wait", Type: lang.StageDelay}}}}}
	st := &model.State{Runs: []*model.Run{{ID: "review/7/1", Pipeline: "review", Status: model.RunWaiting, Stage: "wait"}}}
	charts := runCharts(cfg, st)
	require.Len(t, charts, 1)
	short := jobSummary([]subjectResult{{Number: 7, Summary: "### pipeline-action\n\n- **review** · waiting", Charts: charts}}, map[string]int{"graphql": 1, "rest": 2}, 2)
	assert.Contains(t, short, "**review** (`review/7/1`)\n\n```mermaid\nflowchart")
	assert.Contains(t, short, "3 requests to GitHub (graphql 1, rest 2), 2 of them content-creating.")

	full := jobSummary([]subjectResult{{Number: 7, Summary: "```mermaid\nflowchart LR\n```", Charts: charts}}, nil, 0)
	assert.Equal(t, 1, strings.Count(full, "```mermaid"), "a chart the comment shows is not shown twice")
	assert.Contains(t, full, "0 requests to GitHub (none), 0 of them content-creating.")
}
