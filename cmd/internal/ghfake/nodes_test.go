package ghfake

import (
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/stretchr/testify/assert"
)

// node(id:) serves a comment to a token that reaches its repository; to one that does not,
// it is an id that names nothing, as GitHub answers.
func TestNodeOfAnotherRepositoryIsNotResolved(t *testing.T) {
	s := widgets(t)
	s.AddRepo("acme/web", "main")
	s.OpenPR("acme/web", PROptions{Number: 30, Author: "dev", Head: "feat/x"})
	_, id := s.Comment("acme/web", 30, "dev", "hello")
	q := `query($id: ID!) { node(id: $id) { ... on IssueComment { body } } }`
	vars := map[string]any{"id": world.NodeID("IssueComment", id)}

	out := gql(t, s, s.BotToken(), q, vars)
	assert.Nil(t, out["errors"])
	assert.Equal(t, "hello", dig(t, out, "data", "node", "body"))

	s.Scope(BotLogin, testRepo)
	out = gql(t, s, s.BotToken(), q, vars)
	assert.Nil(t, dig(t, out, "data", "node"))
	assert.Equal(t, "Could not resolve to a node with the global id of '"+world.NodeID("IssueComment", id)+"'", dig(t, out, "errors", 0, "message"))
}
