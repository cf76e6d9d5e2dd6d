package state

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type passing struct{}

func (passing) Evaluate(*model.Facts) model.GateResult {
	return model.GateResult{Status: model.GatePass, Message: "the check holds on this head, as a real gate's message says at length"}
}

// gatesRun is the state of a PR after one event on which the n gates of a pipeline,
// each with three checks, all held: the run asks for its merge.
func gatesRun(tb testing.TB, n int) (*lang.Config, *model.State) {
	tb.Helper()
	p := &lang.Pipeline{Name: "many", Trigger: lang.Trigger{Event: "pull_request.opened"}}
	for i := 1; i <= n; i++ {
		next := fmt.Sprintf("gate-%04d", i+1)
		if i == n {
			next = "merge"
		}
		p.Stages = append(p.Stages, &lang.Stage{ID: fmt.Sprintf("gate-%04d", i), Type: lang.StageGate, OnPass: next, Conditions: []lang.Condition{
			{Check: "ci", Eval: passing{}}, {Check: "reviews", Eval: passing{}}, {Check: "labels", Eval: passing{}}}})
	}
	p.Stages = append(p.Stages, &lang.Stage{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete})
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{p}}
	facts := &model.Facts{Repo: "acme/widgets", DefaultBranch: "main", PR: &model.PullRequest{Number: 7, State: model.PROpen, BaseRef: "main", HeadSHA: "aaaaaaa"}}
	res := engine.Step(cfg, nil, model.Input{Key: "k", Event: "pull_request.opened"}, facts, time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	require.Len(tb, res.Effects, 1)
	return cfg, res.State
}

// A run through 1,000 gates stores their decisions, not their checklists: its file is far
// below what GitHub's GraphQL gives of a file (GitHubBlobText), and reads back whole.
func TestThousandGatesFileStaysSmall(t *testing.T) {
	_, st := gatesRun(t, 1000)
	file, err := EncodeFile(st)
	require.NoError(t, err)
	t.Logf("the state file of a run through 1,000 gates: %d bytes", len(file))
	assert.LessOrEqual(t, len(file), 64<<10)
	back, err := DecodeFile(file, "acme/widgets#7")
	require.NoError(t, err)
	require.Len(t, back.Runs[0].Stages, 1001)
	assert.Equal(t, model.StagePassed, back.Runs[0].Stages["gate-0500"].Status)
	again, err := EncodeFile(back)
	require.NoError(t, err)
	assert.Equal(t, file, again)

	assert.Len(t, back.Runs[0].History, model.MaxHistory)
	assert.Equal(t, 1001-model.MaxHistory, back.Runs[0].HistoryCut, "the rows left out are counted")
}

// The status says how many history rows a run left out.
func TestStatusSaysHistoryRowsLeftOut(t *testing.T) {
	cfg, st := gatesRun(t, 60)
	body, err := Body(cfg, st)
	require.NoError(t, err)
	assert.Contains(t, Human(body), "History (61, first 5 and newest 45 shown)")
	assert.Contains(t, Human(body), "| | … | 11 rows between: `pipeline-action audit --repo acme/widgets --number 7` prints the whole trail | |")
	assert.Contains(t, Human(body), "| · → gate-0001 | started on pull_request.opened |", "where the run began is shown")
	cfg, st = gatesRun(t, 10)
	body, err = Body(cfg, st)
	require.NoError(t, err)
	assert.NotContains(t, Human(body), "rows between")
}

// BenchmarkThousandGateStateFile encodes the state file of a run through 1,000 gates of
// three checks each and reports its bytes: the figure the README's table holds to 64 KB.
func BenchmarkThousandGateStateFile(b *testing.B) {
	_, st := gatesRun(b, 1000)
	var size int
	for b.Loop() {
		file, err := EncodeFile(st)
		if err != nil {
			b.Fatal(err)
		}
		size = len(file)
	}
	b.ReportMetric(float64(size), "bytes/file")
}
