package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, yaml.Unmarshal(src, &out), path)
	return out
}

// The workflow for users (docs/setup/pipelines-nokey.yml) is the README's, and this repository's own
// workflow listens to the same events with the same permissions and concurrency; it differs
// only in running the action from its checkout of the default branch.
func TestWorkflowsAgree(t *testing.T) {
	docs := readYAML(t, "../../docs/setup/pipelines-nokey.yml")

	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	// The first YAML block after the README's first mention of docs/setup/pipelines-nokey.yml.
	block := regexp.MustCompile("(?s)docs/setup/pipelines-nokey\\.yml.*?\n( *)```yaml\n(.*?)\n *```").FindSubmatch(readme)
	require.NotNil(t, block, "the README shows docs/setup/pipelines-nokey.yml after naming it")
	indented := regexp.MustCompile("(?m)^"+string(block[1])).ReplaceAll(block[2], nil)
	var fromReadme map[string]any
	require.NoError(t, yaml.Unmarshal(indented, &fromReadme))
	assert.Equal(t, docs, fromReadme, "README.md and docs/setup/pipelines-nokey.yml show the same workflow")

	own := readYAML(t, "../../.github/workflows/pipelines.yml")
	for _, key := range []string{"name", "on", "permissions", "concurrency"} {
		if key == "on" {
			// This repository has no agents' workflows to name.
			delete(docs[key].(map[string]any)["workflow_run"].(map[string]any), "workflows")
			delete(own[key].(map[string]any)["workflow_run"].(map[string]any), "workflows")
		}
		assert.Equal(t, docs[key], own[key], key)
	}
	steps := own["jobs"].(map[string]any)["pipeline"].(map[string]any)["steps"].([]any)
	require.Len(t, steps, 2)
	checkout := steps[0].(map[string]any)
	assert.Regexp(t, `^actions/checkout@[0-9a-f]{40}$`, checkout["uses"], "pinned by SHA")
	assert.Equal(t, map[string]any{
		"ref":                 "${{ github.event.repository.default_branch }}",
		"persist-credentials": false,
	}, checkout["with"], "the action runs from the default branch, never from a pull request's code")
	assert.Equal(t, "./", steps[1].(map[string]any)["uses"])

	_, err = os.Stat("../../.github/workflows/example.yml")
	assert.True(t, os.IsNotExist(err), "the example for users does not run in this repository")
}
