package state

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A save whose state differs from the file only in what the facts give again (a gate's
// checklist, the seq) commits nothing: the comment shows it, holding the file's decisions
// at the file's seq, and the next event goes on from the comment. A decision commits.
func TestDerivedOnlyChangeCommitsNothing(t *testing.T) {
	ctx := t.Context()
	m, w, logs := savedSubject(t, nil, sampleState())
	commits, file := len(m.messages), m.files["pr-7.json"]

	d := subjectStores(m, w, commentsOf(w), logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	next := sampleState()
	next.Seq = 4
	next.Runs[0].Stages["ready"].Results = []model.GateResult{{Check: "ci_status", Status: model.GatePass, Message: "check \"test\" passed"}}
	w.calls = nil
	_, err = d.Save(ctx, 7, change(st, next), v)
	require.NoError(t, err)
	assert.Len(t, m.messages, commits, "no commit for a checklist line")
	assert.Equal(t, file, m.files["pr-7.json"])
	assert.Equal(t, []string{"update 1"}, w.calls, "the comment shows it")

	d = subjectStores(m, w, commentsOf(w), logs)
	st, _, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, 3, st.Seq, "the file's seq")
	assert.Equal(t, model.GatePass, st.Runs[0].Stages["ready"].Results[0].Status, "the comment's checklist")

	// Asked to keep it (the comments cursor moved past pages), or a decision: a commit.
	d = subjectStores(m, w, commentsOf(w), logs)
	st, v, err = d.Load(ctx, 7)
	require.NoError(t, err)
	kept := sampleState()
	kept.CommentsRead = 99
	c := change(st, kept)
	c.Keep = true
	_, err = d.Save(ctx, 7, c, v)
	require.NoError(t, err)
	assert.Len(t, m.messages, commits+1)
	d = subjectStores(m, w, commentsOf(w), logs)
	st, v, err = d.Load(ctx, 7)
	require.NoError(t, err)
	_, err = d.Save(ctx, 7, change(st, withSeq(5)), v)
	require.NoError(t, err)
	assert.Len(t, m.messages, commits+2)
}

func TestDecisionsLeaveOutDerivedData(t *testing.T) {
	a, b := sampleState(), sampleState()
	b.Seq, b.CommentsRead, b.StateComment = 9, 12, "node"
	b.Runs[0].Stages["ready"].Results = nil
	assert.Equal(t, decisions(a), decisions(b))
	b.Runs[0].Stages["ready"].Attempt = 2
	assert.NotEqual(t, decisions(a), decisions(b))
	assert.NotNil(t, a.Runs[0].Stages["ready"].Results, "the state itself is left as it is")
}

// The comment is edited only when what it shows changed: not for the comments cursor
// alone, which no one sees; a new checklist line is edited in.
func TestCommentEditedOnlyWhenItShowsMore(t *testing.T) {
	ctx := t.Context()
	m, w, logs := savedSubject(t, nil, sampleState())
	commits := len(m.messages)

	d := subjectStores(m, w, commentsOf(w), logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	cursor := sampleState()
	cursor.Seq, cursor.CommentsRead = 4, 42
	w.calls = nil
	_, err = d.Save(ctx, 7, change(st, cursor), v)
	require.NoError(t, err)
	assert.Empty(t, w.calls, "nothing shown changed")
	assert.Len(t, m.messages, commits)

	shown := sampleState()
	shown.Runs[0].Stages["ready"].Results[0].Message = "check \"test\" failed"
	_, err = d.Save(ctx, 7, change(st, shown), v)
	require.NoError(t, err)
	assert.Equal(t, []string{"update 1"}, w.calls)
	assert.Len(t, m.messages, commits)
}
