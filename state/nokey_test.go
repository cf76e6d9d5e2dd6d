package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// signedSubject is a subject whose state the action wrote with key keyA: a signed
// comment (id 1) and a signed pr-7.json.
func signedSubject(t *testing.T) (*memBranch, *fakeWriter) {
	t.Helper()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	var logs []string
	d := keyedStores(m, w, nil, &logs, mustKeys(t, keyA))
	st, v, err := d.Load(t.Context(), 7)
	require.NoError(t, err)
	_, err = d.Save(t.Context(), 7, change(st, sampleState()), v)
	require.NoError(t, err)
	m.calls, w.calls = nil, nil
	return m, w
}

// An invocation without the key that finds a signed state — in the comment, in the file,
// or both — stops with an error that names the missing input and where the signed state
// is; Load writes nothing, and there is no state to Save from.
func TestLoadWithoutKeyStopsOnASignedState(t *testing.T) {
	ctx := t.Context()
	for _, tc := range []struct {
		name       string
		dropFile   bool // the state branch lost the file
		dropMarker bool // the comment is gone
		want       []string
	}{
		{name: "both", want: []string{"comment 1", "pr-7.json at commit"}},
		{name: "the comment only", dropFile: true, want: []string{"(comment 1)"}},
		{name: "the file only", dropMarker: true, want: []string{"(pr-7.json at commit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, w := signedSubject(t)
			if tc.dropFile {
				delete(m.files, "pr-7.json")
			}
			comments := commentsOf(w)
			if tc.dropMarker {
				comments = nil
			}
			var logs []string
			d := subjectStores(m, w, comments, &logs)
			st, _, err := d.Load(ctx, 7)
			assert.Nil(t, st)
			var signed *SignedStateError
			require.ErrorAs(t, err, &signed)
			assert.Equal(t, "acme/widgets#7", signed.Subject)
			assert.Contains(t, err.Error(), "the state of acme/widgets#7 (")
			assert.Contains(t, err.Error(), "is signed with a state key, and this workflow was given none: give it the `state_key` input")
			assert.Contains(t, err.Error(), "it stopped and wrote nothing")
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
			assert.Empty(t, m.calls)
			assert.Empty(t, w.calls)
		})
	}
}

// Only a state the action itself would have written counts: a signed marker in a comment
// someone else edited, or a signed file someone else pushed, is untrusted whatever its
// signature, and ignored as before; with nothing else there the keyless invocation starts
// from the facts.
func TestLoadWithoutKeyIgnoresSignedStatesTheActionDidNotWrite(t *testing.T) {
	ctx := t.Context()
	m, w := signedSubject(t)
	comments := commentsOf(w)
	comments[0].Editor = "mallory"
	text := m.files["pr-7.json"]
	m.push("mallory", false, []FileChange{{Path: "pr-7.json", Text: text}}, "a push")
	var logs []string
	d := subjectStores(m, w, comments, &logs)
	st, _, err := d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Empty(t, st.Runs)
	require.Len(t, d.NewlyIgnored(), 2)
	assert.Contains(t, d.NewlyIgnored()[0].Why, "edited by mallory")
	assert.Contains(t, d.NewlyIgnored()[1].Why, "last changed by mallory")
}

// With the key, or with it among the previous keys of a rotation, the same state is
// trusted; with an unknown key it is untrusted and ignored, as a forgery is, rather than
// stopping the action: anyone who posts as the action's identity could otherwise stop
// every pipeline with a marker signed with a key of their own.
func TestLoadWithAKeyTrustsOrIgnoresASignedState(t *testing.T) {
	ctx := t.Context()
	m, w := signedSubject(t)
	var logs []string
	for _, k := range []*Keys{mustKeys(t, keyA), mustKeys(t, keyB, keyA)} {
		st, _, err := keyedStores(m, w, commentsOf(w), &logs, k).Load(ctx, 7)
		require.NoError(t, err)
		assert.Equal(t, sampleState().Runs, st.Runs)
	}
	d := keyedStores(m, w, commentsOf(w), &logs, mustKeys(t, keyB))
	st, _, err := d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Empty(t, st.Runs)
	require.Len(t, d.NewlyIgnored(), 2)
	assert.Equal(t, whyBadSig, d.NewlyIgnored()[0].Why)
}
