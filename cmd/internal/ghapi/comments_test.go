package ghapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotCommentEdits reads what state.Check needs: full ids (above 2^32 in the fake,
// as on github.com) and who last edited each comment.
func TestSnapshotCommentEdits(t *testing.T) {
	ctx := t.Context()
	fake, c := setupAtClockWithConfig(t, noPipelines)
	fake.AddUser("mallory", "write")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	posted := model.EffectMarker("p/7/1/notify/comment")
	_, plain := fake.Comment(repoName, 7, ghfake.BotLogin, "plain\n"+posted)
	_, own := fake.Comment(repoName, 7, ghfake.BotLogin, "own edit")
	fake.EditComment(repoName, own, ghfake.BotLogin, "own edit, again")
	_, theirs := fake.Comment(repoName, 7, ghfake.BotLogin, "before\n"+model.EffectMarker("p/7/1/other/comment"))
	fake.EditComment(repoName, theirs, "mallory", "after\n"+model.EffectMarker("p/7/1/other/comment"))

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	require.Greater(t, plain, int64(1)<<32)
	assert.Equal(t, []state.Comment{
		{ID: plain, Author: ghfake.BotLogin, ViewerDidAuthor: true, Body: "plain\n" + posted},
		{ID: own, Author: ghfake.BotLogin, ViewerDidAuthor: true, Edited: true, Editor: ghfake.BotLogin, Body: "own edit, again"},
		{ID: theirs, Author: ghfake.BotLogin, ViewerDidAuthor: true, Edited: true, Editor: "mallory",
			Body: "after\n" + model.EffectMarker("p/7/1/other/comment")},
	}, snap.Comments)
	assert.Equal(t, []string{"p/7/1/notify/comment"}, snap.Facts.PR.Posted,
		"a comment someone else edited does not say what the action posted")
}

// TestStateCommentAboveInt32 writes and rereads the state comment through the adapter when
// comment ids exceed 2^32: the comment is found and edited, never posted again.
func TestStateCommentAboveInt32(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	load := func() (*state.CommentStore, *model.State, state.Version) {
		snap, err := c.Snapshot(ctx, 7, "main", configPath)
		require.NoError(t, err)
		store := state.NewCommentStore(c, snap.Comments, nil)
		st, v, err := store.Load(ctx, 7)
		require.NoError(t, err)
		assert.Empty(t, store.NewlyIgnored())
		return store, st, v
	}
	store, st, v := load()
	require.Zero(t, v.CommentID)
	for seq := 1; seq <= 3; seq++ {
		st.Subject, st.Seq = repoName+"#7", seq
		body, err := state.Body(nil, st)
		require.NoError(t, err)
		_, err = store.Write(ctx, 7, body, v)
		require.NoError(t, err)
		store, st, v = load()
		assert.Equal(t, seq, st.Seq, "the state written is the state read")
		assert.Greater(t, v.CommentID, int64(1)<<32)
	}
	comments := fake.Comments(repoName, 7)
	require.Len(t, comments, 1, "one state comment, edited in place")
	assert.Equal(t, v.CommentID, comments[0].ID)
	assert.Equal(t, map[string]int{"graphql": 4, "issues/create-comment": 1, "issues/update-comment": 3}, fake.Stats(),
		"creating costs one edit more (to bind the id); every later change one edit")
}

// TestSnapshotReviewEdits reads who last edited each review's body: GitHub lets anyone with
// write access edit a review's body and keeps its author, so a body someone else edited is
// not its author's word (Review.EditedBy); the author's own edit is.
func TestSnapshotReviewEdits(t *testing.T) {
	ctx := t.Context()
	fake, c := setupAtClockWithConfig(t, noPipelines)
	fake.AddUser("alice", "write")
	fake.AddUser("bob", "write")
	fake.AddUser("dev", "write")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	fake.Review(repoName, 7, "alice", "changes_requested", "keep the flag")
	fake.EditReview(repoName, 7, "alice", "dev", "drop the flag")
	fake.Review(repoName, 7, "bob", "approved", "fine")
	fake.EditReview(repoName, 7, "bob", "bob", "fine, with a nit")

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	require.Len(t, snap.Facts.PR.Reviews, 2)
	assert.Equal(t, "dev", snap.Facts.PR.Reviews[0].EditedBy)
	assert.Equal(t, "drop the flag", snap.Facts.PR.Reviews[0].Body)
	assert.Empty(t, snap.Facts.PR.Reviews[1].EditedBy, "the author's own edit is their word")
}

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
