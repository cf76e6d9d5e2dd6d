package state

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// laterStores is subjectStores, binding a new state comment on the next event.
func laterStores(m *memBranch, w *fakeWriter, comments []Comment, logs *[]string) *Dual {
	d := subjectStores(m, w, comments, logs)
	d.BindLater()
	return d
}

// With the branch holding the state and nothing done yet, the state comment is posted in
// one call, its status shown; the next event that shows more adopts it and binds its state
// in; one that shows nothing new leaves it. The claim serialises the posting as before.
func TestStateCommentPostedInOneCall(t *testing.T) {
	ctx := t.Context()
	m, w, logs, d := emptySubject()
	d.BindLater()
	saveOnce(t, d, sampleState())
	assert.Equal(t, []string{"create #7"}, w.calls, "one call")
	assert.True(t, IsPlaceholder(w.bodies[1]))
	assert.Contains(t, w.bodies[1], "auto-merge", "the status is shown")
	require.NotNil(t, claimOf(t, m))

	// An event that shows nothing new writes nothing.
	w.calls = nil
	d = laterStores(m, w, commentsOf(w), logs)
	saveOnce(t, d, sampleState())
	assert.Empty(t, w.calls)

	// One that shows more binds the state into the placeholder: the state comment.
	d = laterStores(m, w, commentsOf(w), logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	shown := sampleState()
	shown.Runs[0].Stages["ready"].Results[0].Message = "check \"test\" passed"
	_, err = d.Save(ctx, 7, change(st, shown), v)
	require.NoError(t, err)
	assert.Equal(t, []string{"update 1"}, w.calls)
	_, why, err := Check(ours(1, w.bodies[1]))
	require.NoError(t, err)
	assert.Empty(t, why, "a trusted state comment")
	assert.Len(t, w.bodies, 1, "one comment")
}

// A state that did something (an effect applied or intended) is bound at once: the
// comment is its spare copy should the branch be lost.
func TestStateCommentBoundAtOnceOnceSomethingWasDone(t *testing.T) {
	ctx := t.Context()
	_, w, _, d := emptySubject()
	d.BindLater()
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	done := sampleState()
	done.Runs[0].Applied = []string{"auto-merge/7/1/ready/1/add_label"}
	_, err = d.Save(ctx, 7, change(st, done), v)
	require.NoError(t, err)
	assert.Equal(t, []string{"create #7", "update 1"}, w.calls)
	assert.True(t, HasMarker(w.bodies[1]))
}

func TestNothingDone(t *testing.T) {
	assert.True(t, nothingDone(sampleState()))
	for name, f := range map[string]func(*model.State){
		"applied":  func(st *model.State) { st.Runs[0].Applied = []string{"k"} },
		"intent":   func(st *model.State) { st.Runs[0].Intents = []model.Intent{{Key: "k"}} },
		"past":     func(st *model.State) { st.Past = []model.PastRun{{ID: "p/7/1"}} },
		"commands": func(st *model.State) { st.CommandsSeen = 5 },
		"refused":  func(st *model.State) { st.Refused = []model.Refusal{{}} },
		"follower": func(st *model.State) { st.Followers = []model.Follower{{Issue: 4}} },
		"shared":   func(st *model.State) { st.Shared = map[string]any{"k": 1} },
		"enabled":  func(st *model.State) { st.Enabled = map[string]bool{"p": true} },
	} {
		st := sampleState()
		f(st)
		assert.False(t, nothingDone(st), name)
	}
}

// A file pushed by someone else before the placeholder is bound: the claim that named it
// is not trusted, and the next event adopts the action's placeholder rather than post a
// second state comment.
func TestPlaceholderAdoptedWhenTheFileIsNotTrusted(t *testing.T) {
	ctx := t.Context()
	m, w, logs, d := emptySubject()
	d.BindLater()
	saveOnce(t, d, sampleState())
	require.True(t, IsPlaceholder(w.bodies[1]))
	forged := withSeq(99)
	forged.Runs[0].Status = model.RunCompleted
	text, err := EncodeFile(forged)
	require.NoError(t, err)
	m.push("mallory", false, []FileChange{{Path: "pr-7.json", Text: text}}, "forged")

	d = laterStores(m, w, commentsOf(w), logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	require.Len(t, d.NewlyIgnored(), 1)
	next := sampleState() // the run, as the facts give it again
	next.Ignored = st.Ignored
	_, err = d.Save(ctx, 7, change(st, next), v)
	require.NoError(t, err)
	assert.Equal(t, 1, creates(w), "no second comment")
	_, why, err := Check(ours(1, w.bodies[1]))
	require.NoError(t, err)
	assert.Empty(t, why, "the placeholder holds the state")
	assert.Contains(t, w.bodies[1], "was ignored")
}
