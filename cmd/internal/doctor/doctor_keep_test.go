package doctor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// keep_up_to_date acts on the push that moves a base: the action's workflow must run on push.
func TestCheckKeepUpToDate(t *testing.T) {
	filtered := yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "branches"}, {Kind: yaml.ScalarNode, Value: "release"}}}
	wf := func(path string, commands []string, events ...string) *workflow {
		on := map[string]yaml.Node{}
		for _, e := range events {
			on[e] = yaml.Node{}
			if e == "push" && commands != nil {
				on[e] = filtered
			}
		}
		return &workflow{path: path, on: on, commands: commands}
	}
	unfiltered := wf("p.yml", []string{"run"}, "pull_request_target")
	unfiltered.on["push"] = yaml.Node{}
	keeps := &lang.Config{Pipelines: []*lang.Pipeline{{Name: "ship", KeepUpToDate: &lang.KeepUpToDate{Method: lang.UpdateMerge},
		Trigger: lang.Trigger{BaseBranch: "release"}}}}
	for _, tc := range []struct {
		name   string
		cfg    *lang.Config
		all    []*workflow
		status string
	}{
		{"no pipeline keeps", &lang.Config{Pipelines: []*lang.Pipeline{{Name: "ship"}}}, []*workflow{wf("p.yml", []string{"run"}, "pull_request_target")}, ""},
		{"action not on push", keeps, []*workflow{wf("p.yml", []string{"run"}, "pull_request_target"), wf("ci.yml", nil, "push")}, findingProblem},
		{"only the sweep on push", keeps, []*workflow{wf("s.yml", []string{"sweep"}, "push")}, findingProblem},
		{"action on push", keeps, []*workflow{wf("p.yml", []string{"run"}, "pull_request_target", "push")}, findingOK},
		{"action on every push", keeps, []*workflow{unfiltered}, findingProblem},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &doctor{cfg: tc.cfg, branch: "main"}
			d.checkKeepUpToDate(tc.all)
			if tc.status == "" {
				assert.Empty(t, d.found)
				return
			}
			require.Len(t, d.found, 1)
			assert.Equal(t, tc.status, d.found[0].status, d.found[0].what)
			if tc.status == findingProblem {
				assert.Contains(t, d.found[0].fix, "push: {branches: [release]}")
			}
		})
	}
}
