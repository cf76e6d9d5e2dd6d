package ghapi_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The action's own commit statuses (pipeline-action/<pipeline>) are read apart from the
// head's checks: no gate of the action, `ci_status` included, waits on them.
func TestOwnStatusesAreNotChecks(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, versionOnly)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	fake.SetStatus(repoName, 7, "ci/lint", "success")
	fake.SetStatus(repoName, 7, "pipeline-action/review", "success")
	fake.SetStatus(repoName, 7, "pipeline-action/review", "pending") // the latest counts
	fake.SetStatus(repoName, 7, "pipeline-action/merge", "failure")

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	var names []string
	for _, cr := range snap.Facts.PR.Checks {
		names = append(names, cr.Name)
	}
	assert.Equal(t, []string{"ci/lint"}, names)
	assert.Equal(t, map[string]string{"pipeline-action/review": "pending", "pipeline-action/merge": "failure"}, snap.Statuses)
}

// CreateStatus cuts a description to GitHub's 140 characters, which GitHub would refuse.
func TestCreateStatusCutsTheDescription(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	head := fake.PR(repoName, 7).HeadSHA
	err := c.CreateStatus(t.Context(), ghapi.Status{SHA: head, Context: "pipeline-action/review", State: "failure",
		Description: strings.Repeat("ü", 200), TargetURL: "https://github.com/acme/widgets/pull/7#issuecomment-1"})
	require.NoError(t, err)
	latest, _ := fake.HeadStatuses(repoName, 7)
	got := latest["pipeline-action/review"]
	assert.Equal(t, "failure", got.State)
	assert.Equal(t, ghapi.MaxStatusDescription, len([]rune(got.Description)))
	assert.True(t, strings.HasSuffix(got.Description, "…"))
	assert.Equal(t, "https://github.com/acme/widgets/pull/7#issuecomment-1", got.TargetURL)
	assertDocumented(t, fake)

	err = c.CreateStatus(t.Context(), ghapi.Status{SHA: strings.Repeat("0", 40), Context: "pipeline-action/review", State: "success"})
	assert.ErrorContains(t, err, "writing the commit status pipeline-action/review on 0000000")
}
