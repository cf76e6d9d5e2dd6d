package ghapi_test

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// TestSnapshotCommentEdits reads what state.Check needs: full ids (above 2^32 in the fake,
// as on github.com) and who last edited each comment.
func TestSnapshotCommentEdits(t *testing.T) {
	ctx := t.Context()
	fake, c := setupAtClock(t)
	fake.AddUser("mallory", "write")
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
	fake, c := setup(t)
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
	fake, c := setupAtClock(t)
	fake.AddUser("alice", "write")
	fake.AddUser("bob", "write")
	fake.AddUser("dev", "write")
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
