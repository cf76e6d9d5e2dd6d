package sim

import (
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// The `stages` key of a run expectation: the status of stages and branches of a run, as
// `{review: succeeded, sec-review: cancelled}`.

// stagesMatch reports whether every stage of want has the status want gives it in run.
func stagesMatch(run *model.Run, want map[string]string) bool {
	for id, status := range want {
		sr := run.Stages[id]
		if sr == nil || string(sr.Status) != status {
			return false
		}
	}
	return true
}

// describeStages writes want as "<stage>=<status>" items, in stage order.
func describeStages(want map[string]string) []string {
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, id+"="+want[id])
	}
	return out
}

// runStages describes the branches of run (stages with a parent), for a failed expectation:
// " branches: a=succeeded b=cancelled", or "".
func runStages(run *model.Run) string {
	var parts []string
	for id, sr := range run.Stages {
		if sr != nil && sr.Parent != "" {
			parts = append(parts, id+"="+string(sr.Status))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return " branches: " + strings.Join(parts, " ")
}
