package doctor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// A default branch that requires the merge queue needs CI that runs on merge groups.
func TestCheckMergeQueue(t *testing.T) {
	wf := func(path string, events ...string) *workflow {
		on := map[string]yaml.Node{}
		for _, e := range events {
			on[e] = yaml.Node{}
		}
		return &workflow{path: path, on: on}
	}
	action := wf(".github/workflows/pipelines.yml", "pull_request_target", "merge_group")
	action.commands = []string{"run"}
	for _, tc := range []struct {
		name   string
		queue  bool
		all    []*workflow
		status string
	}{
		{"no queue", false, []*workflow{wf("ci.yml", "pull_request")}, ""},
		{"ci without merge_group", true, []*workflow{action, wf("ci.yml", "pull_request")}, findingProblem},
		{"ci with merge_group", true, []*workflow{action, wf("ci.yml", "pull_request", "merge_group")}, findingOK},
		{"no ci found", true, []*workflow{action}, findingUnverified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &doctor{settings: &ghapi.RepoSettings{DefaultBranch: "main", MergeQueue: tc.queue}}
			d.checkMergeQueue(tc.all)
			if tc.status == "" {
				assert.Empty(t, d.found)
				return
			}
			require.Len(t, d.found, 1)
			assert.Equal(t, tc.status, d.found[0].status, d.found[0].what)
		})
	}
}
