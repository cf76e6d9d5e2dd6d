package ghfake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fault with Skip lets that many calls through, served, before it answers one; then the
// calls after it are served again.
func TestInjectSkip(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	c := client(t, s, s.BotToken())
	s.Inject("issues/create-comment", Fault{Status: 502, Message: "Bad Gateway", Skip: 2})
	for i := range 2 {
		_, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("served"))
		require.NoError(t, err, "call %d is let through", i+1)
	}
	_, resp, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("refused"))
	require.Error(t, err)
	assert.Equal(t, 502, resp.StatusCode)
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("served again"))
	require.NoError(t, err)
	var bodies []string
	for _, cm := range s.Comments(testRepo, 7) {
		bodies = append(bodies, cm.Body)
	}
	assert.Equal(t, []string{"served", "served", "served again"}, bodies)
}
