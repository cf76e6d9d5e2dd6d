package sim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// appPermissionScopes are GitHub's names of an app's repository permissions and the
// workflow scope each one is.
var appPermissionScopes = map[string]string{
	"Contents":        "contents",
	"Pull requests":   "pull-requests",
	"Issues":          "issues",
	"Commit statuses": "statuses",
	"Checks":          "checks",
	"Actions":         "actions",
	"Deployments":     "deployments",
}

// appAccess is an app permission's access as a workflow scope's level.
var appAccess = map[string]string{"Read and write": "write", "Read-only": "read"}

// docAppPermissions reads the table of docs/tokens.md: the app's repository permissions
// as workflow scopes. Metadata, which every token has, and the organization's Members are
// left out.
func docAppPermissions(t *testing.T) map[string]any {
	t.Helper()
	doc, err := os.ReadFile("../../../docs/tokens.md")
	require.NoError(t, err)
	rows := regexp.MustCompile("(?m)^\\| ([A-Z][a-z ()]+) \\| (Read and write|Read-only) \\| (.*) \\|$").FindAllStringSubmatch(string(doc), -1)
	require.NotEmpty(t, rows, "docs/tokens.md lists the app's permissions in a table")
	out := map[string]any{}
	for _, r := range rows {
		name, level := r[1], appAccess[r[2]]
		if name == "Metadata" || strings.HasPrefix(name, "Members") {
			continue
		}
		scope, ok := appPermissionScopes[name]
		require.True(t, ok, "docs/tokens.md: %q is not an app permission the action needs", name)
		require.NotContains(t, out, scope, "docs/tokens.md lists %q twice", name)
		out[scope] = level
		assert.Equal(t, "`"+scope+": "+level+"`", r[3], "docs/tokens.md: the row of %q names its workflow scope", name)
	}
	return out
}

// The app's permissions in docs/tokens.md are the workflows' scopes, which
// TestDocumentedPermissionsSuffice holds to what the action calls, and the examples that
// play an app's token pass with exactly them.
func TestDocumentedAppPermissionsSuffice(t *testing.T) {
	app := docAppPermissions(t)
	assert.Equal(t, workflowFile(t, "../../../docs/setup/pipelines.yml"), app, "docs/tokens.md's app permissions against docs/setup/pipelines.yml's")
	files, err := filepath.Glob("../../../examples/*/scenario*.yaml")
	require.NoError(t, err)
	played := 0
	for _, file := range files {
		sc, err := loadScenario(file)
		require.NoError(t, err, file)
		if sc.Token != scenarioTokenApp || sc.Permissions != nil {
			continue
		}
		played++
		// Every invocation acts as the same app (docs/tokens.md).
		sc.Permissions = app
		if len(sc.Teams) > 0 {
			sc.Permissions = withMembers(app, app, app)
		}
		t.Run(file, func(t *testing.T) { playAsDocumented(t, sc) })
	}
	assert.Positive(t, played, "an example plays an app's token")
}
