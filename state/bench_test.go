package state

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

func benchState() *model.State {
	return &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{waitingRun(), completedRun()}}
}

// BenchmarkBody measures rendering the comment and encoding the state, done once per
// event that changes something.
func BenchmarkBody(b *testing.B) {
	cfg, st := testConfig(), benchState()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Body(cfg, st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode measures reading the state from the comment, done on every event.
func BenchmarkDecode(b *testing.B) {
	body, err := Body(testConfig(), benchState())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok, err := Decode(body); err != nil || !ok {
			b.Fatal("no state", err)
		}
	}
}

// manyRuns returns the live state of a PR on which a pipeline ran n times, each run
// archived by Compact as the next one finished, as the store does on every save.
func manyRuns(tb testing.TB, n int) (*lang.Config, *model.State) {
	tb.Helper()
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "count", Trigger: lang.Trigger{Event: "pull_request.labeled"}}}}
	facts := &model.Facts{Repo: "acme/widgets", DefaultBranch: "main", PR: &model.PullRequest{Number: 7, State: model.PROpen, BaseRef: "main", HeadSHA: "aaaaaaa"}}
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var st *model.State
	for i := 1; i <= n; i++ {
		res := engine.Step(cfg, st, model.Input{Key: fmt.Sprintf("run-%d", i), Event: "pull_request.labeled"}, facts, at.Add(time.Duration(i)*time.Second))
		st, _ = Compact(res.State)
	}
	return cfg, st
}

// A subject's live state, its file and its comment depend on its open runs, not on how
// many ran before: after 5,000 runs the comment is as small as after a few.
func TestManyRunsStaySmall(t *testing.T) {
	cfg, st := manyRuns(t, 5000)
	require.Len(t, st.Runs, 1)
	assert.Equal(t, "count/7/5000", st.Runs[0].ID)
	assert.Len(t, st.Past, MaxPast)
	body, err := Body(cfg, st)
	require.NoError(t, err)
	assert.Less(t, len(body), 8000)
	file, err := EncodeFile(st)
	require.NoError(t, err)
	assert.Less(t, len(file), 16000)
}

// BenchmarkStepAfterManyRuns measures an event on a PR on which a pipeline ran 5,000
// times: the archived runs cost nothing.
func BenchmarkStepAfterManyRuns(b *testing.B) {
	cfg, st := manyRuns(b, 5000)
	facts := &model.Facts{Repo: "acme/widgets", DefaultBranch: "main", PR: &model.PullRequest{Number: 7, State: model.PROpen, BaseRef: "main", HeadSHA: "aaaaaaa"}}
	at := time.Date(2026, 1, 6, 9, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		engine.Step(cfg, st, model.Input{Key: "k", Event: "issue_comment.created"}, facts, at)
	}
}
