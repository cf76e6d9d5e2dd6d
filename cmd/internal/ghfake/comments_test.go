package ghfake

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An edit keeps the author and records the editor, whoever edits and however (the world,
// REST or GraphQL), as GitHub does.
func TestEditComment(t *testing.T) {
	s, c := widgetsAsBot(t)
	created, _, err := c.Issues.CreateComment(t.Context(), "acme", "widgets", 7, ghComment("status"))
	require.NoError(t, err)
	id := created.GetID()
	require.Greater(t, id, int64(1)<<32, "comment ids above 2^32")
	assert.Equal(t, id, s.NextCommentID()-1, "ids are handed out in order")

	comments := s.Comments(testRepo, 7)
	require.Len(t, comments, 1)
	assert.Empty(t, comments[0].Editor)
	assert.True(t, comments[0].LastEditedAt.IsZero())

	ev := s.EditComment(testRepo, id, "alice", "status, edited")
	assert.Equal(t, "issue_comment", ev.Name)
	assert.Equal(t, "edited", ev.Action)
	var p struct {
		Changes struct{ Body struct{ From string } }
		Comment struct {
			ID   int64
			User struct{ Login string }
		}
		Sender struct{ Login string }
	}
	require.NoError(t, json.Unmarshal(ev.Payload, &p))
	assert.Equal(t, "status", p.Changes.Body.From)
	assert.Equal(t, id, p.Comment.ID)
	assert.Equal(t, BotLogin, p.Comment.User.Login, "the author stays")
	assert.Equal(t, "alice", p.Sender.Login)

	query := `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
	  comments(first: 1) { nodes { author { login } editor { login } lastEditedAt includesCreatedEdit viewerDidAuthor body } } } } }`
	node := dig(t, gql(t, s, s.BotToken(), query, nil), "data", "repository", "pullRequest", "comments", "nodes", 0)
	assert.Equal(t, "github-actions", dig(t, node, "author", "login"))
	assert.Equal(t, "alice", dig(t, node, "editor", "login"))
	assert.Equal(t, true, dig(t, node, "viewerDidAuthor"), "the viewer still authored it")
	assert.Equal(t, true, dig(t, node, "includesCreatedEdit"))
	assert.Equal(t, "2026-01-05T09:00:00Z", dig(t, node, "lastEditedAt"))

	_, _, err = c.Issues.EditComment(t.Context(), "acme", "widgets", id, ghComment("status, again"))
	require.NoError(t, err)
	node = dig(t, gql(t, s, s.BotToken(), query, nil), "data", "repository", "pullRequest", "comments", "nodes", 0)
	assert.Equal(t, "github-actions", dig(t, node, "editor", "login"), "the last editor counts")
	assert.Equal(t, "status, again", dig(t, node, "body"))
}

// A comment's earlier bodies stay readable, as GitHub's edit history keeps them, and a
// deleted comment's text stays among AllComments: it was notified before it was deleted.
func TestCommentHistoryAndDeletedComments(t *testing.T) {
	s, c := widgetsAsBot(t)
	created, _, err := c.Issues.CreateComment(t.Context(), "acme", "widgets", 7, ghComment("first"))
	require.NoError(t, err)
	_, _, err = c.Issues.EditComment(t.Context(), "acme", "widgets", created.GetID(), ghComment("second"))
	require.NoError(t, err)
	s.EditComment(testRepo, created.GetID(), "alice", "third")
	got := s.Comments(testRepo, 7)
	require.Len(t, got, 1)
	assert.Equal(t, "third", got[0].Body)
	assert.Equal(t, []string{"first", "second"}, got[0].Edits)

	other, _, err := c.Issues.CreateComment(t.Context(), "acme", "widgets", 7, ghComment("gone"))
	require.NoError(t, err)
	_, err = c.Issues.DeleteComment(t.Context(), "acme", "widgets", other.GetID())
	require.NoError(t, err)
	assert.Len(t, s.Comments(testRepo, 7), 1, "the API no longer serves it")
	all := s.AllComments(testRepo)
	require.Len(t, all, 2)
	assert.Equal(t, "third", all[0].Body)
	assert.Equal(t, "gone", all[1].Body)
}
