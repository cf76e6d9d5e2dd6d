package ghapi_test

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
)

// TestMissingScopeSaysWhichAndHow: a token whose workflow forgot a scope fails with a
// message that names the scope and the fix, over GraphQL (the facts query, refused at a
// commit status without statuses: read) and REST (a team without members: read, which
// counts no one and says why, rather than failing the run).
func TestMissingScopeSaysWhichAndHow(t *testing.T) {
	ctx := t.Context()
	fake := faketest.New(t)
	fake.AddRepo(repoName, "main")
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login"})
	fake.SetStatus(repoName, 7, "ci/legacy", "success")
	fake.CompleteCheck(repoName, 7, "test", "success", "")
	fake.AddTeam("acme/maintainers", "bob")
	tok := fake.NewBotToken()
	c, err := ghapi.New(ghapi.Options{Token: tok, RESTURL: fake.URL + "/api/v3", GraphQLURL: fake.URL + "/api/graphql", Repository: repoName})
	require.NoError(t, err)

	fake.Grant(tok, ghfake.Permissions{"contents": "write", "pull_requests": "write", "checks": "read", "actions": "read"})
	_, err = c.Snapshot(ctx, 7, "main", configPath)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "statusCheckRollup.contexts.nodes.1")
	assert.Contains(t, err.Error(), "`statuses: read`")
	assert.Contains(t, err.Error(), "permissions:")

	fake.Grant(tok, ghfake.Permissions{"contents": "write", "pull_requests": "write", "statuses": "read", "checks": "read"})
	_, err = c.Snapshot(ctx, 7, "main", configPath)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "checkSuite.workflowRun: the token lacks `actions: read`")

	fake.Grant(tok, ghfake.Permissions{"contents": "write", "pull_requests": "write", "statuses": "read", "checks": "read", "actions": "read"})
	_, err = c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)

	var warned []string
	teams, _, err := c.People(ctx, model.Needs{Teams: []string{"acme/maintainers"}}, func(f string, a ...any) {
		warned = append(warned, fmt.Sprintf(f, a...))
	})
	require.NoError(t, err)
	assert.Empty(t, teams["acme/maintainers"], "a team the token cannot read counts no one")
	require.Len(t, warned, 1)
	assert.Contains(t, warned[0], "`members: read`")
	assert.Contains(t, warned[0], "GitHub App token")

	fake.Grant(tok, ghfake.Permissions{"contents": "read"})
	_, err = c.CreateComment(ctx, 7, "hello")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the token lacks `issues: write` or `pull-requests: write`")
}
