package ghfake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommentMutations(t *testing.T) {
	s := widgets(t)
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { id } } }`, nil)
	prID := dig(t, out, "data", "repository", "pullRequest", "id")
	out = gql(t, s, s.BotToken(), `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "status"}) {
	  commentEdge { node { id fullDatabaseId viewerDidAuthor lastEditedAt editor { login } includesCreatedEdit } } } }`, map[string]any{"id": prID})
	require.Nil(t, out["errors"])
	node := dig(t, out, "data", "addComment", "commentEdge", "node")
	assert.Equal(t, true, dig(t, node, "viewerDidAuthor"))
	assert.Equal(t, "5000000001", dig(t, node, "fullDatabaseId"), "a BigInt is a string")
	assert.Nil(t, dig(t, node, "lastEditedAt"))
	assert.Nil(t, dig(t, node, "editor"))
	assert.Equal(t, false, dig(t, node, "includesCreatedEdit"))

	out = gql(t, s, s.BotToken(), `mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "status v2"}) {
	  issueComment { body author { login } editor { login } lastEditedAt includesCreatedEdit } } }`, map[string]any{"id": dig(t, node, "id")})
	require.Nil(t, out["errors"])
	edited := dig(t, out, "data", "updateIssueComment", "issueComment")
	assert.Equal(t, "status v2", dig(t, edited, "body"))
	assert.Equal(t, "github-actions", dig(t, edited, "editor", "login"))
	assert.Equal(t, dig(t, edited, "author", "login"), dig(t, edited, "editor", "login"), "spelt alike")
	assert.NotNil(t, dig(t, edited, "lastEditedAt"), "set even when the clock has not moved")
	assert.Equal(t, true, dig(t, edited, "includesCreatedEdit"))
	comments := s.Comments(testRepo, 7)
	require.Len(t, comments, 1)
	assert.Equal(t, "status v2", comments[0].Body)
	assert.Equal(t, BotLogin, comments[0].Author)
}
