package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mistake in the scenario file is printed as file:line:col: message, first on its line, as
// editors and problem matchers read it; an error without a place keeps the command's name.
func TestSimulatePrintsScenarioMistakesAtTheirPlace(t *testing.T) {
	for _, tt := range []struct{ name, scenario, want string }{
		{"unknown step", "repo: acme/widgets\nsteps:\n  - open_prr: {number: 7}\n", `:3:5: unknown step "open_prr"; did you mean "open_pr"?`},
		{"duplicate key", "repo: acme/widgets\nrepo: acme/other\nsteps: []\n", `:2:1: duplicate key "repo" in scenario (first at SCENARIO:1:1)`},
		{"syntax", "repo: acme/widgets\nsteps:\n  - open_pr: {number: 7\n", `:3:14: invalid YAML`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeScenario(t, tt.scenario)
			scenario := filepath.Join(dir, "scenario.yaml")
			code, stdout, stderr := simulate(t, dir)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, scenario+strings.ReplaceAll(tt.want, "SCENARIO", scenario)), stderr)
		})
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), []byte("version: 1\n"), 0o600))
	code, _, stderr := simulate(t, dir)
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(stderr, "pipeline-action simulate: "), stderr)
}
