package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

func loadPermissions(t *testing.T, src string) (*scenario, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("repo: acme/widgets\n"+src), 0o600))
	return loadScenario(path)
}

// TestScenarioPermissions: a flat permissions: is every invocation's token, a map under
// run, report or sweep replaces it for that invocation, scopes are named as a workflow
// names them and reach the fake as GitHub App permissions, and mistakes are refused.
func TestScenarioPermissions(t *testing.T) {
	sc, err := loadPermissions(t, "")
	require.NoError(t, err)
	assert.Nil(t, sc.tokenPermissions("run"), "without the key every scope is write")

	sc, err = loadPermissions(t, "permissions:\n  contents: write\n  pull-requests: read\n  statuses: none\n  report: {issues: write}\n")
	require.NoError(t, err)
	assert.Equal(t, ghfake.Permissions{"contents": "write", "pull_requests": "read"}, sc.tokenPermissions("run"))
	assert.Equal(t, ghfake.Permissions{"contents": "write", "pull_requests": "read"}, sc.tokenPermissions("sweep"))
	assert.Equal(t, ghfake.Permissions{"issues": "write"}, sc.tokenPermissions("report"))
	assert.Equal(t, "report", invocationKind("workflow_dispatch", true))
	assert.Equal(t, "sweep", invocationKind("schedule", false))
	assert.Equal(t, "run", invocationKind("pull_request_target", false))

	for src, want := range map[string]string{
		"permissions:\n  pull_requests: write\n": `2:1: permissions: unknown scope "pull_requests"`,
		"permissions:\n  contents: admin\n":      "2:1: permissions: contents must be read, write or none, not admin",
		"permissions:\n  run: write\n":           "2:1: permissions.run must be a map of scope → read, write or none",
		"permissions:\n  sweep: {checks: yes}\n": "2:1: permissions.sweep: checks must be read, write or none, not yes",
	} {
		_, err := loadPermissions(t, src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want)
	}
}
