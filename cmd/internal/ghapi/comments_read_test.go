package ghapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The facts query reads the oldest and the newest 100 comments; the ones between are
// read newest first only as far back as the state needs, and a state comment among them
// by its node id: the queries grow with what is new, not with the comments on the PR.
func TestReadCommentsBackToWhatTheStateRead(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	now := clock
	fake.SetClock(func() time.Time { now = now.Add(time.Minute); return now })
	fake.AddUser("alice", "write")
	fake.SetFile(repoName, "main", configPath, "version: 1\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	ids := make([]int64, 450)
	for i := range ids {
		user, body := "alice", fmt.Sprintf("comment %d", i)
		if i == 149 {
			user, body = ghfake.BotLogin, "the state comment"
		}
		_, ids[i] = fake.Comment(repoName, 7, user, body)
	}
	snapshot := func() *ghapi.Snapshot {
		snap, err := c.Snapshot(ctx, 7, "main", configPath)
		require.NoError(t, err)
		return snap
	}

	snap := snapshot()
	assert.Len(t, snap.Comments, 200)
	assert.True(t, snap.CommentGap())
	assert.Equal(t, ids[449], snap.NewestComment())
	assert.Empty(t, snap.NodeID(ids[149]), "not read: between the two pages")

	fake.ResetStats()
	read, err := c.ReadComments(ctx, snap, 7, ghapi.CommentsNeed{Since: ids[400]})
	require.NoError(t, err)
	assert.Equal(t, ghapi.CommentsRead{}, read, "the newest page reaches back to what the state read")
	assert.Empty(t, fake.Stats())
	assert.Len(t, snap.Comments, 200)

	snap = snapshot()
	read, err = c.ReadComments(ctx, snap, 7, ghapi.CommentsNeed{Since: ids[300]})
	require.NoError(t, err)
	assert.Equal(t, 1, read.Pages)
	assert.Len(t, snap.Comments, 300, "back to comment 250, the oldest of that page")
	assert.Empty(t, snap.NodeID(ids[149]))

	snap = snapshot()
	read, err = c.ReadComments(ctx, snap, 7, ghapi.CommentsNeed{Since: ids[400], From: fake.Comments(repoName, 7)[200].CreatedAt})
	require.NoError(t, err)
	assert.Equal(t, 2, read.Pages, "a waiting comment stage counts the comments since it was entered")
	assert.Len(t, snap.Comments, 400)

	snap = snapshot()
	read, err = c.ReadComments(ctx, snap, 7, ghapi.CommentsNeed{})
	require.NoError(t, err)
	assert.Equal(t, 3, read.Pages, "a state that read nothing reads everything")
	require.Len(t, snap.Comments, 450)
	for i, cm := range snap.Comments {
		require.Equal(t, ids[i], cm.ID, "oldest first, each once")
	}
	node := snap.NodeID(ids[149])
	require.NotEmpty(t, node)

	snap = snapshot()
	fake.ResetStats()
	read, err = c.ReadComments(ctx, snap, 7, ghapi.CommentsNeed{Since: ids[449], StateComment: node})
	require.NoError(t, err)
	assert.Equal(t, ghapi.CommentsRead{StateComment: true}, read)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
	require.Len(t, snap.Comments, 201)
	assert.Equal(t, "the state comment", snap.Comments[100].Body)
	assert.True(t, snap.Comments[100].ViewerDidAuthor)
	assert.Equal(t, node, snap.NodeID(ids[149]))
}
