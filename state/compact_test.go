package state

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

// remembered is what the engine reads of pipeline's runs in st, as it reads it: the
// highest run number (the next run takes one more), the newest trigger time of a run the
// trigger started (a level trigger does not start again for it), and the trigger keys it
// recognises.
func remembered(st *model.State, pipeline string) (number int, at time.Time, keys map[string]bool) {
	mark := st.Marks[pipeline]
	number, at, keys = mark.Number, mark.At, map[string]bool{mark.Key: mark.Key != ""}
	records := append([]model.PastRun(nil), st.Past...)
	for _, r := range st.Runs {
		records = append(records, r.Past())
	}
	for _, p := range records {
		if p.Pipeline != pipeline {
			continue
		}
		m := model.RunMark{Number: number, At: at}.Fold(p)
		number, at = m.Number, m.At
		keys[p.TriggerKey] = true
	}
	return number, at, keys
}

// playRounds runs every one of pipelines rounds times on one subject, each run to its
// end, compacting after each round as a save does; it returns the state and the keys of
// the last round.
func playRounds(t *testing.T, pipelines, rounds int) *model.State {
	t.Helper()
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := &model.State{Version: 1, Subject: "acme/widgets#7"}
	for round := 1; round <= rounds; round++ {
		next := *st
		next.Runs = append([]*model.Run(nil), st.Runs...)
		for p := range pipelines {
			when := at.Add(time.Duration(round)*time.Hour + time.Duration(p)*time.Second)
			r := finishedRun(fmt.Sprintf("p%03d", p), round, model.RunCompleted, when)
			r.TriggerKey = fmt.Sprintf("delivery-%d", round)
			r.TriggerAt, r.UpdatedAt = when.Add(-time.Second), when.Add(time.Minute)
			next.Runs = append(next.Runs, r)
		}
		st, _ = Compact(&next)
	}
	return st
}

func TestCompactBoundsTheFileWhateverThePipelines(t *testing.T) {
	st := playRounds(t, 200, 5)
	text, err := EncodeFile(st)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(text), 64<<10, "a file of 200 pipelines run 5 times each")
	assert.LessOrEqual(t, len(st.Past), MaxPast)
	finished := 0
	for _, r := range st.Runs {
		if r.Status.Final() {
			finished++
		}
	}
	assert.LessOrEqual(t, finished, MaxFinished)
	back, err := DecodeFile(text, "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, st.Marks, back.Marks, "the marks read back as written")
}

func TestCompactRemembersWhatTheEngineReads(t *testing.T) {
	st := playRounds(t, 200, 5)
	for p := range 200 {
		name := fmt.Sprintf("p%03d", p)
		number, at, keys := remembered(st, name)
		assert.Equal(t, 5, number, "%s: the next run is number 6, never one already handed out", name)
		want := time.Date(2026, 1, 5, 14, 0, 0, 0, time.UTC).Add(time.Duration(p)*time.Second - time.Second)
		assert.True(t, at.Equal(want), "%s: the newest trigger time survives, so a level trigger does not start again: %s", name, at)
		assert.True(t, keys["delivery-5"], "%s: a repeated delivery of its last run is recognised", name)
	}
	assert.NotContains(t, st.Marks, "", "every record folds into its own pipeline's mark")
}

func TestCompactKeepsTheKeysOfItsWindow(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := &model.State{Version: 1}
	for i := 1; i <= MaxPast+10; i++ {
		r := finishedRun("a", i, model.RunCompleted, at.Add(time.Duration(i)*time.Minute))
		st.Runs = append(st.Runs, r)
		st, _ = Compact(st)
	}
	number, _, keys := remembered(st, "a")
	assert.Equal(t, MaxPast+10, number)
	for i := 10; i <= MaxPast+10; i++ { // the newest run stays in Runs, MaxPast before it in Past
		assert.True(t, keys[fmt.Sprintf("run-%d", i)], "run-%d is among the newest %d records", i, MaxPast)
	}
	assert.False(t, keys["run-8"], "older keys are forgotten")
	assert.Equal(t, "run-9", st.Marks["a"].Key, "the newest key that left stays")
	assert.Equal(t, 9, st.Marks["a"].Number, "the runs folded")
}

func TestCompactMarksSubPipelinesApart(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	past := []model.PastRun{
		{ID: "a/7/4", Pipeline: "a", StartedAt: at.Add(time.Hour), Parent: "outer/7/1"},
		{ID: "a/7/2", Pipeline: "a", StartedAt: at, TriggerAt: at.Add(-time.Minute)},
		{ID: "b/7/1", Pipeline: "b", StartedAt: at, Parent: "outer/7/1"},
	}
	for i := range MaxPast {
		past = append(past, model.PastRun{ID: fmt.Sprintf("c/7/%d", i+1), Pipeline: "c", StartedAt: at})
	}
	live, archived := Compact(&model.State{Version: 1, Past: past})
	assert.Empty(t, archived)
	assert.Len(t, live.Past, MaxPast)
	assert.Equal(t, model.RunMark{Number: 4, At: at.Add(-time.Minute)}, live.Marks["a"],
		"the highest number of any run, the trigger time of the newest run the trigger started")
	assert.Equal(t, model.RunMark{Number: 1}, live.Marks["b"], "a sub-pipeline's run was not started by the trigger")
}

func TestRunMarkText(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 123, time.UTC)
	for _, m := range []model.RunMark{{Number: 3}, {Number: 12, At: at}, {Number: 4, Key: "report-a/7/1/s#@/1/x"},
		{Number: 5, At: at, Key: "run-17"}} {
		text, err := m.MarshalText()
		require.NoError(t, err)
		var back model.RunMark
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, m, back)
	}
	var m model.RunMark
	assert.Error(t, m.UnmarshalText([]byte("x@2026")))
	assert.Error(t, m.UnmarshalText([]byte("3@yesterday")))
	assert.Error(t, m.UnmarshalText([]byte("-1")))
}
