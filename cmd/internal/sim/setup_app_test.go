package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
)

// TestSetupWithAnAppToken plays the setup with an app's token (docs/tokens.md): the
// action's commits to the state branch and its merge are pushes GitHub delivers, which
// start every workflow on push. The workflows of docs/setup/ run on none of them, nor on
// the end of a CI run on the state branch (a CI on push without branches-ignore), and the
// pull request still merges.
func TestSetupWithAnAppToken(t *testing.T) {
	doc := readDoc(t, "setup.md")
	for _, files := range setupFiles {
		t.Run(files.pipelines, func(t *testing.T) {
			skipped, _, _ := playSetup(t, setupConfig(t, []byte(doc)), files.pipelines, files.sweep, setupOrders["approval then CI"], "token: app\n")
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

			text := runtest.Read(t, "../../../"+files.pipelines)
			var wf setupWorkflow
			require.NoError(t, yaml.Unmarshal([]byte(text), &wf))
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
	tokens := readDoc(t, "tokens.md")
	assert.True(t, slices.ContainsFunc(strings.Split(tokens, "\n"), func(l string) bool {
		return strings.Contains(l, "branches-ignore: ["+lang.DefaultStateBranch+"]")
	}), "docs/tokens.md shows CI on push leaving out the state branch")
}

// A sweep looks at a review once: the sweep after an approval that CI's failure keeps from
// merging evaluates the pull request and writes its state; the next reads the index and
// the reviews (two queries) and writes nothing.
func TestSweepLooksAtAReviewOnce(t *testing.T) {
	doc := readDoc(t, "setup.md")
	steps := `
  - check: {pr: 1, name: test, workflow: %[1]s, conclusion: failure}
  - review: {pr: 1, user: maintainer, state: approved}
  - advance: %[2]s
  - advance: %[2]s
  - expect: {prs: {1: {merged: false}}}
  - check: {pr: 1, name: test, workflow: %[1]s}
`
	_, keyed, s := playSetup(t, setupConfig(t, []byte(doc)), setupFiles[0].pipelines, setupFiles[0].sweep, steps, "")
	require.True(t, keyed, "the recommended workflow skips reviews")
	var sweeps []stepStats
	for _, st := range s.stats {
		if strings.HasPrefix(st.label, "advance") {
			sweeps = append(sweeps, st)
		}
	}
	require.Len(t, sweeps, 2)
	assert.Positive(t, sweeps[0].writes, "the first sweep evaluates the reviewed pull request and writes its state: %v", sweeps[0].calls)
	assert.Zero(t, sweeps[1].writes, "the second writes nothing: %v", sweeps[1].calls)
	total := 0
	for _, n := range sweeps[1].calls {
		total += n
	}
	assert.Equal(t, 2, total, "the second reads the index and the reviews, and evaluates nothing: %v", sweeps[1].calls)
}
