package run

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
)

// TestKeptUpToDateOrder: the pull requests of open runs of keep_up_to_date pipelines, closest
// to merging first (the furthest stage, then the oldest pull request), one entry each; runs of
// other pipelines, of issues, of other repositories, escalated or finished runs and comment
// claims are left out.
func TestKeptUpToDateOrder(t *testing.T) {
	stages := func(ids ...string) []*lang.Stage {
		var out []*lang.Stage
		for _, id := range ids {
			out = append(out, &lang.Stage{ID: id})
		}
		return out
	}
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{
		{Name: "ship", KeepUpToDate: &lang.KeepUpToDate{Method: lang.UpdateRebase}, Stages: stages("review", "checks", "merge")},
		{Name: "other", Stages: stages("review", "checks", "merge")},
	}}
	entry := func(pipeline string, n int, stage string, status model.RunStatus) state.IndexEntry {
		return state.IndexEntry{Run: pipeline + "/run", Pipeline: pipeline, Subject: "acme/widgets#" + strconv.Itoa(n),
			File: state.SubjectFile(true, n), Status: status, Stage: stage}
	}
	idx := &state.Index{Runs: []state.IndexEntry{
		entry("ship", 9, "review", model.RunWaiting),
		entry("ship", 8, "checks", model.RunWaiting),
		entry("ship", 5, "checks", model.RunRunning),
		entry("ship", 3, "merge", model.RunEscalated),                                            // waits for a person
		entry("ship", 2, "merge", model.RunCompleted),                                            // finished
		entry("other", 1, "merge", model.RunWaiting),                                             // keeps nothing up to date
		entry("ship", 9, "merge", model.RunWaiting),                                              // a second run of #9: its furthest counts
		{Run: "", Pipeline: "ship", Subject: "acme/widgets#4", File: state.SubjectFile(true, 4)}, // a comment claim
		{Run: "ship/x", Pipeline: "ship", Subject: "acme/widgets#6", File: state.SubjectFile(false, 6), Status: model.RunWaiting, Stage: "merge"},
		{Run: "ship/y", Pipeline: "ship", Subject: "acme/other#7", File: state.SubjectFile(true, 7), Status: model.RunWaiting, Stage: "merge"},
	}}
	var got []int
	for _, c := range keptUpToDate(cfg, idx, "acme/widgets") {
		got = append(got, c.number)
		assert.Equal(t, lang.UpdateRebase, c.method)
	}
	assert.Equal(t, []int{9, 5, 8}, got)
}
