package ghapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

func TestLoginSpellsAccountsAsREST(t *testing.T) {
	for _, tt := range []struct{ login, typename, want string }{
		{"github-actions", "Bot", "github-actions[bot]"},       // a comment's author in GraphQL
		{"github-actions[bot]", "Bot", "github-actions[bot]"},  // already spelt so
		{"github-actions[bot]", "User", "github-actions[bot]"}, // GraphQL's viewer with GITHUB_TOKEN
		{"github-actions", "User", "github-actions"},           // a person of that name is not the bot
		{"my-app", "Bot", "my-app[bot]"},                       // an app installation
		{"alice", "User", "alice"},
		{"acme", "Organization", "acme"},
		{"", "Bot", ""},
	} {
		assert.Equal(t, tt.want, ghapi.Login(tt.login, tt.typename), "%s %s", tt.typename, tt.login)
	}
}

// TestSnapshotIdentities reads the accounts GraphQL returns in their REST spelling, so
// that the action's identity, a PR author and a review author compare with what
// webhooks and the config say, and a User named like the bot is another account.
func TestSnapshotIdentities(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.AddUser("github-actions", "write") // a person who took the bot's name
	fake.AddUser("my-app[bot]", "write")
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dependabot[bot]"})
	fake.Review(repoName, 7, "my-app[bot]", "approved", "")
	_, own := fake.Comment(repoName, 7, ghfake.BotLogin, "mine")
	fake.EditComment(repoName, own, ghfake.BotLogin, "mine, again")
	_, taken := fake.Comment(repoName, 7, ghfake.BotLogin, "before")
	fake.EditComment(repoName, taken, "github-actions", "after")

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, "github-actions[bot]", snap.Viewer)
	assert.Equal(t, "dependabot[bot]", snap.Facts.PR.Author)
	require.Len(t, snap.Facts.PR.Reviews, 1)
	assert.Equal(t, "my-app[bot]", snap.Facts.PR.Reviews[0].Author)
	assert.True(t, snap.Facts.PR.Reviews[0].IsBot)

	require.Len(t, snap.Comments, 2)
	assert.Equal(t, state.Comment{ID: own, Author: "github-actions[bot]", ViewerDidAuthor: true, Edited: true,
		Editor: "github-actions[bot]", Body: "mine, again"}, snap.Comments[0])
	assert.False(t, snap.Comments[0].EditedByOther(), "the bot edited its own comment")
	assert.Equal(t, state.Comment{ID: taken, Author: "github-actions[bot]", ViewerDidAuthor: true, Edited: true,
		Editor: "github-actions", Body: "after"}, snap.Comments[1])
	assert.True(t, snap.Comments[1].EditedByOther(), "the User github-actions is not the Bot github-actions")
	_, why, err := state.Check(snap.Comments[1])
	require.NoError(t, err)
	assert.Equal(t, "edited by github-actions, not by this action", why)
}

// TestSnapshotIdentitiesOfAnApp runs as an app installation: its viewer, and the author
// of what it posted, are both "<slug>[bot]".
func TestSnapshotIdentitiesOfAnApp(t *testing.T) {
	ctx := t.Context()
	fake, _ := setup(t)
	fake.AddUser("my-app[bot]", "write")
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	app, err := ghapi.New(ghapi.Options{Token: fake.Token("my-app[bot]"), RESTURL: fake.URL + "/api/v3",
		GraphQLURL: fake.URL + "/api/graphql", Repository: repoName})
	require.NoError(t, err)
	_, err = app.CreateComment(ctx, 7, "hello")
	require.NoError(t, err)

	snap, err := app.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, "my-app[bot]", snap.Viewer)
	assert.Equal(t, "my-app[bot]", snap.Facts.Viewer)
	require.Len(t, snap.Comments, 1)
	assert.Equal(t, "my-app[bot]", snap.Comments[0].Author)
	assert.True(t, snap.Comments[0].ViewerDidAuthor)
}
