package stats

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/state"
)

var t0 = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

func row(run string, at time.Duration, from, to, kind string) state.AuditEntry {
	return state.AuditEntry{At: t0.Add(at), Run: run, Pipeline: "review", From: from, To: to, Why: "w", Kind: kind}
}

// testLookup knows the stages of review: build (an agent), ci (a gate on checks),
// approve (a human stage).
func testLookup(pipeline, stage string) (StageInfo, bool) {
	infos := map[string]StageInfo{"build": {"agent", Agents, 0}, "ci": {"gate", CI, 1}, "approve": {"human", People, 2}}
	info, ok := infos[stage]
	return info, ok && pipeline == "review"
}

// trails are three runs of review on two subjects: one that retries, loops, escalates and
// completes; one whose agent errs for good; one that began before the window and is open.
func trails() [][]state.AuditEntry {
	h := time.Hour
	a := []state.AuditEntry{
		row("review/1/1", 0, "", "build", ""),
		row("review/1/1", 10*time.Minute, "build", "build", model.KindRetry),
		row("review/1/1", 30*time.Minute, "build", "ci", ""),
		row("review/1/1", 40*time.Minute, "ci", "build", model.KindLoop),
		row("review/1/1", 50*time.Minute, "build", "ci", ""),
		row("review/1/1", h, "ci", "approve", ""),
		row("review/1/1", 3*h, "approve", "escalate", ""),
		row("review/1/1", 5*h, "approve", "approve", ""),
		row("review/1/1", 6*h, "approve", "complete", ""),
		row("review/1/2", 24*h, "", "build", ""),
		row("review/1/2", 24*h+20*time.Minute, "build", "fail", model.KindError),
	}
	b := []state.AuditEntry{
		row("review/2/1", -2*h, "", "build", ""),
		row("review/2/1", h, "build", "ci", ""),
		row("review/2/1", 40*24*h, "ci", "approve", ""), // after the window
	}
	return [][]state.AuditEntry{a, b}
}

func TestAggregate(t *testing.T) {
	rep := Aggregate(trails(), testLookup, t0, t0.Add(30*24*time.Hour))
	assert.Equal(t, 2, rep.Subjects)
	require.Len(t, rep.Pipelines, 1)
	p := rep.Pipelines[0]
	assert.Equal(t, "review", p.Name)
	assert.Equal(t, []int{2, 2, 1, 1, 0, 1}, []int{p.Started, p.Finished, p.Completed, p.Failed, p.Cancelled, p.Open},
		"started, finished, completed, failed, cancelled, open: the run begun before the window is not started in it")
	assert.Equal(t, []int{1, 2, 1, 1}, []int{p.Loops, p.Errors, p.Retries, p.Escalations})
	require.Len(t, p.Stages, 3)
	m := time.Minute
	build, ci, approve := p.Stages[0], p.Stages[1], p.Stages[2]
	assert.Equal(t, "build", build.ID, "in the config's order")
	assert.Equal(t, 4, build.Visits, "30m (its retry inside), 10m, 20m, and 3h ended in the window")
	assert.Equal(t, Seconds(20*m), build.Median, "nearest rank: the 2nd of 4")
	assert.Equal(t, Seconds(3*time.Hour), build.P90, "the 4th of 4")
	assert.Equal(t, Seconds(240*m), build.Total)
	assert.Equal(t, []any{"ci", 2, Seconds(10 * m)}, []any{ci.ID, ci.Visits, ci.Median}, "the open visit does not count")
	assert.Equal(t, []any{"approve", "human", People, 2, Seconds(time.Hour), Seconds(2 * time.Hour)},
		[]any{approve.ID, approve.Type, approve.Wait, approve.Visits, approve.Median, approve.P90})
	assert.Equal(t, map[Wait]Seconds{Agents: Seconds(240 * m), CI: Seconds(20 * m), People: Seconds(5 * time.Hour)}, p.Waiting,
		"people: 3h at approve and 2h escalated")
}

// --since leaves out what happened before it: the first run's rows, and visits that
// ended before it.
func TestAggregateSince(t *testing.T) {
	rep := Aggregate(trails(), testLookup, t0.Add(2*time.Hour), t0.Add(30*24*time.Hour))
	require.Len(t, rep.Pipelines, 1)
	p := rep.Pipelines[0]
	assert.Equal(t, []int{1, 2, 1, 1, 1}, []int{p.Started, p.Finished, p.Completed, p.Failed, p.Escalations})
	assert.Equal(t, []int{0, 1, 0}, []int{p.Loops, p.Errors, p.Retries})
	require.Len(t, p.Stages, 2)
	assert.Equal(t, []any{"build", 1, Seconds(20 * time.Minute)}, []any{p.Stages[0].ID, p.Stages[0].Visits, p.Stages[0].Median})
	assert.Equal(t, []any{"approve", 2}, []any{p.Stages[1].ID, p.Stages[1].Visits})

	none := Aggregate(trails(), testLookup, t0.Add(50*24*time.Hour), t0.Add(60*24*time.Hour))
	require.Len(t, none.Pipelines, 1, "the run still open at the window's end")
	assert.Equal(t, []int{0, 0, 1}, []int{none.Pipelines[0].Started, none.Pipelines[0].Finished, none.Pipelines[0].Open})
}

// A stage the config no longer has waits for "other", after the stages it has.
func TestAggregateUnknownStage(t *testing.T) {
	rows := []state.AuditEntry{row("review/3/1", 0, "", "gone", ""), row("review/3/1", time.Minute, "gone", "build", "")}
	p := Aggregate([][]state.AuditEntry{rows}, testLookup, t0, t0.Add(time.Hour)).Pipelines[0]
	require.Len(t, p.Stages, 1)
	assert.Equal(t, Stage{ID: "gone", Wait: Other, Visits: 1, Median: Seconds(time.Minute), P90: Seconds(time.Minute), Total: Seconds(time.Minute)},
		Stage{ID: p.Stages[0].ID, Type: p.Stages[0].Type, Wait: p.Stages[0].Wait, Visits: p.Stages[0].Visits, Median: p.Stages[0].Median, P90: p.Stages[0].P90, Total: p.Stages[0].Total})
}

func TestPercentileNearestRank(t *testing.T) {
	ds := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n)
		}
		return out
	}
	assert.Equal(t, time.Duration(5), Percentile(ds(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 50))
	assert.Equal(t, time.Duration(9), Percentile(ds(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 90))
	assert.Equal(t, time.Duration(2), Percentile(ds(3, 1, 2), 50))
	assert.Equal(t, time.Duration(3), Percentile(ds(3, 1, 2), 90))
	assert.Equal(t, time.Duration(7), Percentile(ds(7), 90))
	assert.Zero(t, Percentile(nil, 50))
}

func TestParseSinceAndHuman(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "12h": 12 * time.Hour, "90m": 90 * time.Minute} {
		got, err := ParseSince(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "0d", "-1h", "d", "1.5d", "soon"} {
		_, err := ParseSince(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, []string{"0s", "45s", "2m5s", "2h5m", "3d4h", "1d"},
		[]string{Human(0), Human(45 * time.Second), Human(125 * time.Second), Human(125 * time.Minute), Human(76*time.Hour + 3*time.Minute), Human(24*time.Hour + 5*time.Second)})
}

// mermaidLine is what a line of the charts WriteMarkdown draws may be.
var mermaidLine = regexp.MustCompile(`^(pie showData|xychart-beta|    title "?[^"` + "`" + `]*"?|    "[^"]+" : [0-9]+(\.[0-9]+)?|    x-axis \["[^"]+"(, "[^"]+")*\]|    y-axis "minutes"|    bar \[[0-9.]+(, [0-9.]+)*\])$`)

func TestWriteMarkdownMermaid(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, Aggregate(trails(), testLookup, t0, t0.Add(30*24*time.Hour)), "acme/widgets"))
	out := b.String()
	assert.Contains(t, out, "| build | agent | agents | 4 | 20m | 3h | 4h |")
	assert.Contains(t, out, "| 2 | 2 | 1 | 1 | 0 | 1 | 1 | 2 | 1 | 1 |")
	blocks := strings.Split(out, "```mermaid\n")[1:]
	require.Len(t, blocks, 2, out)
	for _, blk := range blocks {
		body, _, closed := strings.Cut(blk, "```\n")
		require.True(t, closed, "the block is closed: %s", blk)
		for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			assert.Regexp(t, mermaidLine, line)
		}
	}
	assert.Contains(t, blocks[0], "    \"people\" : 5\n    \"CI\" : 0.33\n    \"agents\" : 4\n")
	assert.Contains(t, blocks[1], "    x-axis [\"build\", \"ci\", \"approve\"]\n")
	assert.Contains(t, blocks[1], "    bar [180, 10, 120]\n    bar [20, 10, 60]\n", "minutes: p90, then the median over it")
}

func TestWriteTextAndJSON(t *testing.T) {
	rep := Aggregate(trails(), testLookup, t0, t0.Add(30*24*time.Hour))
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, rep))
	assert.Contains(t, b.String(), "review: 2 runs started, 2 finished (1 completed, 1 failed, 0 cancelled), 1 open")
	assert.Contains(t, b.String(), "waiting: people 5h (54%), CI 20m (4%), agents 4h (43%), other 0s (0%)")
	assert.Regexp(t, `  approve +human +people +2 +1h +2h +3h`, b.String())
	assert.Regexp(t, `  ci +gate +CI +2 +10m +10m +20m`, b.String())
	b.Reset()
	require.NoError(t, WriteJSON(&b, rep))
	var back struct {
		Pipelines []struct {
			Waiting map[string]int `json:"waiting_seconds"`
			Stages  []struct {
				ID     string `json:"id"`
				Median int    `json:"median_seconds"`
			} `json:"stages"`
		} `json:"pipelines"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, 18000, back.Pipelines[0].Waiting["people"])
	assert.Equal(t, 1200, back.Pipelines[0].Stages[0].Median)
}
