package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// A flood of comments by someone without authority is read once and answered once: the
// events after it cost what they cost on a quiet pull request, and the state records
// how far the comments were read.
func TestCommentFloodIsReadOnceAndAnsweredOnce(t *testing.T) {
	sim := playDir(t, "comment-flood")
	var replies int
	var st string
	for _, c := range sim.fake.Comments(sim.sc.Repo, 7) {
		if c.Author != ghfake.BotLogin {
			continue
		}
		if strings.HasPrefix(c.Body, "@mallory ") {
			replies++
		}
		if state.HasMarker(c.Body) {
			st = c.Body
		}
	}
	assert.Equal(t, 1, replies, "one reply for 1,651 comments")
	decoded, found, err := state.Decode(st)
	require.NoError(t, err)
	require.True(t, found)
	assert.NotZero(t, decoded.CommentsRead)
	assert.NotEmpty(t, decoded.StateComment)
	require.Len(t, decoded.Refused, 1)
	assert.Equal(t, "mallory", decoded.Refused[0].Login)

	calls := map[int]map[string]int{}
	for _, s := range sim.stats {
		calls[s.step] = s.calls
	}
	assert.Equal(t, 14, calls[2]["graphql"], "the first event after the 1,200 comments reads them: 11 pages")
	// Steps 5 and 6: mallory's /pipeline skip (refused again, not replied to) and alice's
	// /pipeline approve, after 1,500 comments.
	for _, step := range []int{5, 6} {
		got := calls[step]
		require.NotNil(t, got, "step %d", step)
		assert.Equal(t, 2, got["graphql"], "step %d: the read and the state's commit, as on a quiet PR", step)
		assert.Equal(t, 1, got["issues/update-comment"], "step %d", step)
		assert.Zero(t, got["issues/create-comment"], "step %d: no reply", step)
	}
}
