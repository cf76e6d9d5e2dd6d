package sim

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
)

// TestSetupWithAnAppToken plays the setup with an app's token (docs/tokens.md): the
// action's commits to the state branch and its merge are pushes GitHub delivers, which
// start every workflow on push. The workflows of docs/setup/ run on none of them, nor on
// the end of a CI run on the state branch (a CI on push without branches-ignore), and the
// pull request still merges.
func TestSetupWithAnAppToken(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/setup.md")
	require.NoError(t, err)
	for _, files := range setupFiles {
		t.Run(files.pipelines, func(t *testing.T) {
			skipped, _ := playSetup(t, setupConfig(t, doc), files.pipelines, files.sweep, setupOrders["approval then CI"], "token: app\n")
			state := "push to " + lang.DefaultStateBranch
			// The branch created, then a commit per state change: each delivered, none run on.
			pushes := 0
			for _, ev := range skipped {
				if ev == state {
					pushes++
				}
			}
			assert.GreaterOrEqual(t, pushes, 2, "the state branch's creation and commits are delivered, and the workflow runs on none: %v", skipped)
			assert.Contains(t, skipped, "push to main", "the merge is delivered, and the workflow does not run on it")
			for _, ev := range skipped {
				assert.True(t, strings.HasPrefix(ev, "push to ") || strings.HasPrefix(ev, "pull_request_review."), "skipped %s", ev)
			}

			text, err := os.ReadFile("../../../" + files.pipelines)
			require.NoError(t, err)
			var wf setupWorkflow
			require.NoError(t, yaml.Unmarshal(text, &wf))
			var runs struct {
				Workflows []string `yaml:"workflows"`
			}
			node := wf.On["workflow_run"]
			require.NoError(t, node.Decode(&runs))
			ci := []byte(`{"workflow_run": {"name": "` + runs.Workflows[0] + `", "head_branch": "` + lang.DefaultStateBranch + `"}}`)
			why := wf.runsOn(t)(ghfake.Event{Name: "workflow_run", Action: "completed", Payload: ci})
			assert.NotEmpty(t, why, "%s runs on the end of CI on the state branch", files.pipelines)
		})
	}
	// docs/tokens.md tells the repository's own CI to leave the state branch out.
	tokens, err := os.ReadFile("../../../docs/tokens.md")
	require.NoError(t, err)
	assert.True(t, slices.ContainsFunc(strings.Split(string(tokens), "\n"), func(l string) bool {
		return strings.Contains(l, "branches-ignore: ["+lang.DefaultStateBranch+"]")
	}), "docs/tokens.md shows CI on push leaving out the state branch")
}
