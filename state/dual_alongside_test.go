package state

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

// ended is sampleState at seq, its run ended as status.
func ended(seq int, status model.RunStatus) *model.State {
	st := withSeq(seq)
	st.Runs[0].Status = status
	return st
}

// afterIntent is an invocation on #7 that has saved its intent (seq 4) and won: the
// store, the state its next commit changes and the version it is on.
func afterIntent(t *testing.T, m *memBranch, w *fakeWriter, logs *[]string) (*Dual, *model.State, Version) {
	t.Helper()
	d := subjectStores(m, w, commentsOf(w), logs)
	st, v, err := d.Load(t.Context(), 7)
	require.NoError(t, err)
	intent := change(st, withSeq(4))
	intent.Intent = true
	v, err = d.Save(t.Context(), 7, intent, v)
	require.NoError(t, err)
	return d, intent.State, v
}

// The outcome's save after a won intent edits the comment alongside its commit. When
// that commit loses the race, the comment shows the loser's view for a moment, but the
// next read goes on from the branch (the winner's truth), never from that comment, and
// the save after it shows the winner's truth in the comment.
func TestDualAlongsideLostRace(t *testing.T) {
	for name, rival := range map[string]func(t *testing.T, m *memBranch, w *fakeWriter, logs *[]string) *model.State{
		// The same subject, at a lower seq than the loser's.
		"same subject": func(t *testing.T, m *memBranch, w *fakeWriter, logs *[]string) *model.State {
			b := subjectStores(m, w, commentsOf(w), logs)
			saveOnce(t, b, ended(5, model.RunFailed))
			return ended(5, model.RunFailed)
		},
		// Another subject: #7's file stays at the intent's commit.
		"another subject": func(t *testing.T, m *memBranch, _ *fakeWriter, _ *[]string) *model.State {
			m.push(viewer, true, []FileChange{{Path: "pr-9.json", Text: "{}"}}, "pr-9")
			return withSeq(4)
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			m, w, logs := savedSubject(t, nil, sampleState())
			d, st, v := afterIntent(t, m, w, logs)
			truth := rival(t, m, w, logs)
			w.calls = nil
			loser := ended(7, model.RunCompleted)
			_, err := d.Save(ctx, 7, change(st, loser), v)
			require.ErrorIs(t, err, ErrConflict)
			assert.Equal(t, []string{"update 1"}, w.calls, "the comment was edited alongside the commit that lost")
			shown, _, err := Decode(w.bodies[1])
			require.NoError(t, err)
			assert.Equal(t, model.RunCompleted, shown.Runs[0].Status)

			// The invocation reads again: the branch's state, not the loser's comment.
			d = subjectStores(m, w, commentsOf(w), logs)
			got, v, err := d.Load(ctx, 7)
			require.NoError(t, err)
			assert.Equal(t, truth.Seq, got.Seq)
			assert.Equal(t, truth.Runs[0].Status, got.Runs[0].Status, "the winner's truth")
			final := ended(truth.Seq+1, truth.Runs[0].Status)
			final.Runs[0].Stage = "merge"
			_, err = d.Save(ctx, 7, change(got, final), v)
			require.NoError(t, err)
			want, err := Body(testConfig(), final)
			require.NoError(t, err)
			assert.Equal(t, Human(want), Human(w.bodies[1]), "the comment shows the winner's truth again")
			again, _, err := Decode(w.bodies[1])
			require.NoError(t, err)
			assert.Equal(t, decisions(final), decisions(again))
		})
	}
}

// Won, the edit alongside names the commit it was written on; the next read goes on
// from the file the commit wrote, and the save after it leaves the comment as it is
// when what it shows is the same.
func TestDualAlongsideWon(t *testing.T) {
	ctx := t.Context()
	m, w, logs := savedSubject(t, nil, sampleState())
	d, st, v := afterIntent(t, m, w, logs)
	intentCommit := m.head
	w.calls, m.calls = nil, nil
	outcome := ended(5, model.RunCompleted)
	_, err := d.Save(ctx, 7, change(st, outcome), v)
	require.NoError(t, err)
	assert.Equal(t, []string{"commit"}, m.calls)
	assert.Equal(t, []string{"update 1"}, w.calls)
	assert.Equal(t, intentCommit, MarkerCommit(w.bodies[1]), "written alongside: it names the commit it was written on")

	d = subjectStores(m, w, commentsOf(w), logs)
	got, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, outcome, got)
	w.calls, m.calls = nil, nil
	_, err = d.Save(ctx, 7, change(got, got), v)
	require.NoError(t, err)
	assert.Empty(t, m.calls)
	assert.Empty(t, w.calls)
}

// An edit beside a commit that loses, and that fails itself, is reported in the log:
// the invocation reads again on the conflict and reports nothing else of it.
func TestDualAlongsideFailedEditIsReported(t *testing.T) {
	m, w, logs := savedSubject(t, nil, sampleState())
	d, st, v := afterIntent(t, m, w, logs)
	m.push(viewer, true, []FileChange{{Path: "pr-9.json", Text: "{}"}}, "pr-9")
	w.updateErr = errors.New("502 Bad Gateway")
	_, err := d.Save(t.Context(), 7, change(st, ended(5, model.RunCompleted)), v)
	require.ErrorIs(t, err, ErrConflict)
	assert.ErrorContains(t, err, "502 Bad Gateway")
	assert.Contains(t, (*logs)[len(*logs)-1], "502 Bad Gateway")
}
