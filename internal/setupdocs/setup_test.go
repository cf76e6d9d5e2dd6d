package setupdocs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

const root = "../.."

type step struct {
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

type job struct {
	Needs       any               `yaml:"needs"`
	If          string            `yaml:"if"`
	Environment any               `yaml:"environment"`
	Permissions map[string]string `yaml:"permissions"`
	Steps       []step            `yaml:"steps"`
}

type workflow struct {
	Name        string                   `yaml:"name"`
	RunName     string                   `yaml:"run-name"`
	On          map[string]yaml.Node     `yaml:"on"`
	Permissions map[string]string        `yaml:"permissions"`
	Jobs        map[string]job           `yaml:"jobs"`
	dispatch    map[string]dispatchInput `yaml:"-"`
}

type dispatchInput struct {
	Required bool   `yaml:"required"`
	Type     string `yaml:"type"`
}

func read(t *testing.T, rel string) workflow {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, rel))
	require.NoError(t, err)
	var wf workflow
	require.NoError(t, yaml.Unmarshal(src, &wf), rel)
	if n, ok := wf.On["workflow_dispatch"]; ok {
		var d struct {
			Inputs map[string]dispatchInput `yaml:"inputs"`
		}
		require.NoError(t, n.Decode(&d), rel)
		wf.dispatch = d.Inputs
	}
	require.NotEmpty(t, wf.Jobs, "%s has no jobs", rel)
	return wf
}

// actionSteps returns the steps of the job that run the action.
func (j job) actionSteps() []step {
	var out []step
	for _, s := range j.Steps {
		if strings.HasPrefix(s.Uses, "org/pipeline-action@") {
			out = append(out, s)
		}
	}
	return out
}

// assertKeyed checks that every job running the action holds the state key from the environment.
func assertKeyed(t *testing.T, rel string, wf workflow) {
	t.Helper()
	ran := 0
	for name, j := range wf.Jobs {
		for _, s := range j.actionSteps() {
			ran++
			assert.Equal(t, "pipelines", j.Environment, "%s: job %s runs the action outside the environment", rel, name)
			assert.Equal(t, "${{ secrets.PIPELINE_STATE_KEY }}", s.With["state_key"], "%s: job %s", rel, name)
			assert.Equal(t, "${{ github.token }}", s.With["token"], "%s: job %s", rel, name)
		}
	}
	assert.Positive(t, ran, "%s runs no action", rel)
}

// The workflows without the key (the README's quick start, which the simulator plays every
// scenario with) are those with it, less the key: the same permissions, triggers and jobs.
func TestPipelinesAndSweepHaveTheSimulatedPermissions(t *testing.T) {
	for setup, nokey := range map[string]string{
		"docs/setup/pipelines.yml": "docs/setup/pipelines-nokey.yml",
		"docs/setup/sweep.yml":     "docs/setup/sweep-nokey.yml",
	} {
		wf, want := read(t, setup), read(t, nokey)
		require.NotEmpty(t, want.Permissions, nokey)
		assert.Equal(t, want.Permissions, wf.Permissions, "%s against %s", setup, nokey)
		assert.Equal(t, want.Name, wf.Name, "%s against %s", setup, nokey)
		for name, j := range wf.Jobs {
			assert.Nil(t, j.Permissions, "%s: job %s narrows the workflow's permissions", setup, name)
		}
		assertKeyed(t, setup, wf)
		assert.Len(t, want.On, len(wf.On), "%s and %s have the same triggers", setup, nokey)
		for event := range want.On {
			assert.Contains(t, wf.On, event, "%s misses the trigger %s of %s", setup, event, nokey)
		}
		require.Len(t, want.Jobs, len(wf.Jobs), nokey)
		for name, j := range want.Jobs {
			assert.Empty(t, j.If, "%s: job %s runs on every event it is given", nokey, name)
			assert.Nil(t, j.Environment, "%s: job %s", nokey, name)
			keyed := wf.Jobs[name]
			require.Len(t, j.actionSteps(), len(keyed.actionSteps()), "%s: job %s", nokey, name)
			for i, s := range j.actionSteps() {
				with := map[string]string{}
				for k, v := range keyed.actionSteps()[i].With {
					if k != "state_key" {
						with[k] = v
					}
				}
				assert.Equal(t, with, s.With, "%s: job %s is %s's less the key", nokey, name, setup)
			}
		}
	}
	assert.Equal(t, "sweep", read(t, "docs/setup/sweep.yml").Jobs["sweep"].actionSteps()[0].With["command"])
}

func TestAgentDeclaresTheDispatchInputs(t *testing.T) {
	wf := read(t, "docs/setup/agent.yml")
	names := []string{"run", "stage", "attempt", "subject", "action", "context", "nonce"}
	assert.Len(t, wf.dispatch, len(names), "the action sends exactly these inputs; GitHub refuses others")
	for _, n := range names {
		assert.Contains(t, wf.dispatch, n)
	}
	for _, n := range []string{"run", "stage", "attempt"} {
		assert.Contains(t, wf.RunName, "${{ inputs."+n+" }}", "run-name names the %s (doctor checks it)", n)
	}
	pipelines := read(t, "docs/setup/pipelines.yml")
	var runs struct {
		Workflows []string `yaml:"workflows"`
	}
	node := pipelines.On["workflow_run"]
	require.NoError(t, node.Decode(&runs))
	assert.Contains(t, runs.Workflows, wf.Name, "the pipelines workflow sees the agent end without a report")
}

func TestAgentReportsFromItsOwnJob(t *testing.T) {
	wf := read(t, "docs/setup/agent.yml")
	assertKeyed(t, "docs/setup/agent.yml", wf)
	want := read(t, "docs/setup/pipelines.yml").Permissions
	reports := 0
	for name, j := range wf.Jobs {
		steps := j.actionSteps()
		if len(steps) == 0 {
			assert.Nil(t, j.Environment, "job %s does the agent's work and must not hold the key", name)
			assert.NotContains(t, j.Permissions, "actions", "job %s", name)
			continue
		}
		reports++
		require.Len(t, steps, 1, "job %s", name)
		assert.Len(t, j.Steps, 1, "job %s runs only the report", name)
		assert.Equal(t, "report", steps[0].With["command"], "job %s", name)
		assert.NotEmpty(t, j.Needs, "job %s reports after the work", name)
		assert.Equal(t, want, j.Permissions, "job %s: a report needs the action's permissions", name)
		for _, in := range []string{"run", "stage", "attempt", "nonce"} {
			assert.Equal(t, "${{ inputs."+in+" }}", steps[0].With[in], "job %s passes %s through", name, in)
		}
	}
	assert.Equal(t, 1, reports)
	assert.Len(t, wf.Jobs, 2, "one job works, one reports")
}

func TestSetupDocShowsEachFileVerbatim(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs/setup.md"))
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(root, "docs/setup/*.yml"))
	require.NoError(t, err)
	require.Len(t, files, 5)
	// The config of step 2, beside the five workflows.
	files = append(files, filepath.Join(root, "docs/setup/pipelines.yaml"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		block := "```yaml\n" + string(src) + "```\n"
		assert.True(t, strings.Contains(string(doc), block), "docs/setup.md must show %s as it is, in a yaml block", filepath.Base(f))
		assert.Contains(t, string(doc), "(setup/"+filepath.Base(f)+")", "docs/setup.md links %s", filepath.Base(f))
	}
	assert.Contains(t, string(doc), "pipeline-action doctor", "the last step checks it works")
}
