package state

import (
	"time"

	"github.com/org/pipeline-action/engine/model"

	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeWriter records the calls a CommentStore makes, and the bodies written.
type fakeWriter struct {
	calls     []string
	bodies    map[int64]string
	nextID    int64
	err       error
	updateErr error
}

func (f *fakeWriter) CreateComment(_ context.Context, number int, body string) (int64, error) {
	f.calls = append(f.calls, fmt.Sprintf("create #%d", number))
	if f.err != nil {
		return 0, f.err
	}
	f.record(f.nextID, body)
	return f.nextID, nil
}

func (f *fakeWriter) UpdateComment(_ context.Context, id int64, body string) error {
	f.calls = append(f.calls, fmt.Sprintf("update %d", id))
	if f.err != nil || f.updateErr != nil {
		return errors.Join(f.err, f.updateErr)
	}
	f.record(id, body)
	return nil
}

func (f *fakeWriter) record(id int64, body string) {
	if f.bodies == nil {
		f.bodies = map[int64]string{}
	}
	f.bodies[id] = body
}

var _ CommentWriter = (*fakeWriter)(nil)

const viewer = "github-actions"

// ours is a comment the action wrote and last edited.
func ours(id int64, body string) Comment {
	return Comment{ID: id, Author: viewer, ViewerDidAuthor: true, Edited: true, Editor: viewer, Body: body}
}

// boundBody is the state comment Save writes for st into comment id.
func boundBody(t testing.TB, st *model.State, id int64) string {
	t.Helper()
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	b, err := Bind(body, id)
	require.NoError(t, err)
	return b
}

// withSeq is sampleState at seq: a state that decided something more with every seq (its
// run's last change moves on), so that saving it is a change the branch stores.
func withSeq(seq int) *model.State {
	st := sampleState()
	st.Seq = seq
	st.Runs[0].UpdatedAt = st.Runs[0].UpdatedAt.Add(time.Duration(seq-3) * time.Minute)
	return st
}

func TestCommentStoreLoad(t *testing.T) {
	big := int64(5_000_000_007) // above 2^32: ids are int64 all the way
	good := boundBody(t, withSeq(3), big)
	forged := boundBody(t, withSeq(99), 11)
	editedBy := func(c Comment, who string) Comment { c.Editor = who; return c }
	neverEdited := func(c Comment) Comment { c.Edited, c.Editor = false, ""; return c }
	v1 := markerPrefix + "v1 H4sIAAAAAAAA/w== -->"
	tests := []struct {
		name        string
		comments    []Comment
		wantSeq     int
		wantID      int64
		wantIgnored []model.IgnoredComment
		wantNewly   int
		wantErr     string
		wantLogs    []string
	}{
		{name: "no comments"},
		{name: "no marker", comments: []Comment{ours(1, "hello"), {ID: 2, Author: "dev", Body: "LGTM"}}},
		{name: "trusted", comments: []Comment{{ID: 1, Author: "dev", Body: "hi"}, ours(big, good)}, wantSeq: 3, wantID: big},
		{name: "other author ignored, not listed", comments: []Comment{{ID: 123, Author: "mallory", Body: forged}},
			wantLogs: []string{"ignoring state marker in comment 123 by mallory: not written by this action"}},
		{name: "other author before trusted", comments: []Comment{{ID: 123, Author: "mallory", Body: forged}, ours(big, good)},
			wantSeq: 3, wantID: big, wantLogs: []string{"ignoring state marker in comment 123 by mallory: not written by this action"}},
		{name: "edited by a write user", comments: []Comment{editedBy(ours(big, good), "mallory")},
			wantIgnored: []model.IgnoredComment{{ID: big, Why: "edited by mallory, not by this action"}}, wantNewly: 1},
		{name: "edited by a deleted user", comments: []Comment{editedBy(ours(big, good), "")},
			wantIgnored: []model.IgnoredComment{{ID: big, Why: "edited by a deleted or unknown user, not by this action"}}, wantNewly: 1},
		{name: "same identity, never edited", comments: []Comment{neverEdited(ours(11, forged)), ours(big, good)},
			wantSeq: 3, wantID: big, wantNewly: 1, wantIgnored: []model.IgnoredComment{
				{ID: 11, Why: "not bound to its comment: never edited after it was posted, as this action's state comments are"}}},
		{name: "copied marker", comments: []Comment{ours(10, good), ours(big, good)}, wantSeq: 3, wantID: big, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: 10, Why: "its state marker belongs to comment 5000000007 (copied)"}}},
		{name: "unbound marker", comments: []Comment{ours(10, "x\n"+mustEncode(t))}, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: 10, Why: "its state marker is bound to no comment"}}},
		{name: "status text changed", comments: []Comment{ours(big, strings.Replace(good, "auto-merge", "auto-merged", 1))}, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: big, Why: "its text does not match its state marker (changed after this action wrote it)"}}},
		{name: "payload spliced", comments: []Comment{ours(11, spliced(t, forged, good))}, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: 11, Why: "its text does not match its state marker (changed after this action wrote it)"}}},
		{name: "text after the marker", comments: []Comment{ours(big, good+"\nP.S.")}, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: big, Why: "text follows its state marker"}}},
		{name: "older marker", comments: []Comment{ours(10, "x\n"+v1)}, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: 10, Why: "written by an older version of this action, whose marker is not bound to its comment"}}},
		{name: "two trusted: the oldest wins", comments: []Comment{ours(11, forged), ours(big, good)}, wantSeq: 99, wantID: 11, wantNewly: 1,
			wantIgnored: []model.IgnoredComment{{ID: big, Why: "it also holds a state; the oldest trusted state comment (id 11) is the one used"}}},
		{name: "corrupt but bound", comments: []Comment{ours(9, sealMarker("", 9, "!!!!"))}, wantErr: "reading state comment 9 on #7"},
		{name: "newer version", comments: []Comment{ours(9, markerPrefix+"v5 9 abc xyz -->")}, wantErr: `unsupported version "v5"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs []string
			w := &fakeWriter{}
			s := NewCommentStore(w, tt.comments, func(format string, args ...any) {
				logs = append(logs, fmt.Sprintf(format, args...))
			})
			st, v, err := s.Load(t.Context(), 7)
			assert.Equal(t, tt.wantLogs, logs)
			assert.Empty(t, w.calls, "Load makes no API call")
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Nil(t, st, "never a silent empty state")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantID, v.CommentID)
			assert.Equal(t, 1, st.Version)
			assert.Equal(t, tt.wantSeq, st.Seq)
			assert.Equal(t, tt.wantIgnored, st.Ignored)
			assert.Len(t, s.NewlyIgnored(), tt.wantNewly)
		})
	}
}

// spliced puts the payload of from's marker into body's marker, keeping body's binding.
func spliced(t *testing.T, body, from string) string {
	mb, _, err := parseMarker(body)
	require.NoError(t, err)
	mf, _, err := parseMarker(from)
	require.NoError(t, err)
	return strings.Replace(body, mb.payload, mf.payload, 1)
}

// An ignored comment is reported once: the state written afterwards remembers it.
func TestCommentStoreReportsIgnoredOnce(t *testing.T) {
	ctx := t.Context()
	bad := ours(10, boundBody(t, withSeq(99), 10))
	bad.Editor = "mallory"
	w := &fakeWriter{nextID: 42}
	s := NewCommentStore(w, []Comment{bad}, nil)
	st, v, err := s.Load(ctx, 7)
	require.NoError(t, err)
	require.Len(t, s.NewlyIgnored(), 1)
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	assert.Contains(t, body, "a state comment (id 10) was ignored: edited by mallory, not by this action")
	v, err = s.Write(ctx, 7, body, v)
	require.NoError(t, err)
	assert.Equal(t, []string{"create #7", "update 42"}, w.calls, "a fresh comment; the ignored one is left alone")
	assert.NotContains(t, w.bodies[42], "pipeline-action:state v2 10 ")

	next := NewCommentStore(w, []Comment{bad, ours(42, w.bodies[42])}, nil)
	st, v2, err := next.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, v, v2, "the fresh comment is trusted")
	assert.Empty(t, next.NewlyIgnored(), "reported once")
	assert.Equal(t, []model.IgnoredComment{{ID: 10, Why: "edited by mallory, not by this action"}}, st.Ignored)
}

func TestCommentStoreSave(t *testing.T) {
	ctx := t.Context()
	boom := errors.New("boom")
	body, err := Body(testConfig(), withSeq(3))
	require.NoError(t, err)
	newer, err := Body(testConfig(), withSeq(4))
	require.NoError(t, err)
	tests := []struct {
		name      string
		comments  []Comment
		v         Version
		body      string
		err       error
		updateErr error
		want      Version
		wantCalls []string
		wantErr   error
	}{
		{name: "unchanged", v: Version{CommentID: 5, Body: boundBody(t, withSeq(3), 5)}, body: body,
			want: Version{CommentID: 5, Body: boundBody(t, withSeq(3), 5)}},
		{name: "create, then bind", body: body, want: Version{CommentID: 42, Body: boundBody(t, withSeq(3), 42)},
			wantCalls: []string{"create #7", "update 42"}},
		{name: "update", v: Version{CommentID: 5, Body: boundBody(t, withSeq(3), 5)}, body: newer,
			want: Version{CommentID: 5, Body: boundBody(t, withSeq(4), 5)}, wantCalls: []string{"update 5"}},
		{name: "create fails", body: body, err: boom, wantCalls: []string{"create #7"}, wantErr: boom},
		{name: "binding fails", body: body, updateErr: boom, wantCalls: []string{"create #7", "update 42"}, wantErr: boom},
		{name: "update fails", v: Version{CommentID: 5, Body: "old"}, body: body, err: boom,
			wantCalls: []string{"update 5"}, wantErr: boom},
		{name: "create over a known state comment", comments: []Comment{ours(5, boundBody(t, withSeq(3), 5))},
			body: body, wantErr: ErrConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &fakeWriter{nextID: 42, err: tt.err, updateErr: tt.updateErr}
			s := NewCommentStore(w, tt.comments, nil)
			_, _, err := s.Load(ctx, 7)
			require.NoError(t, err)
			got, err := s.Write(ctx, 7, tt.body, tt.v)
			assert.Equal(t, tt.wantCalls, w.calls)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCommentStoreSaveRefusesBodyWithoutMarker(t *testing.T) {
	w := &fakeWriter{nextID: 42}
	s := NewCommentStore(w, nil, nil)
	_, err := s.Write(t.Context(), 7, "no marker", Version{})
	require.Error(t, err)
	assert.Empty(t, w.calls, "nothing written")
}

func TestCommentStoreCreateThenSave(t *testing.T) {
	ctx := t.Context()
	one, err := Body(testConfig(), withSeq(1))
	require.NoError(t, err)
	two, err := Body(testConfig(), withSeq(2))
	require.NoError(t, err)
	w := &fakeWriter{nextID: 42}
	s := NewCommentStore(w, nil, nil)
	_, v, err := s.Load(ctx, 7)
	require.NoError(t, err)
	v, err = s.Write(ctx, 7, one, v)
	require.NoError(t, err)
	_, err = s.Write(ctx, 7, two, Version{})
	require.ErrorIs(t, err, ErrConflict, "a second create in one invocation")
	v, err = s.Write(ctx, 7, two, v)
	require.NoError(t, err)
	_, err = s.Write(ctx, 7, two, v)
	require.NoError(t, err)
	assert.Equal(t, []string{"create #7", "update 42", "update 42"}, w.calls)
	st, why, err := Check(ours(42, w.bodies[42]))
	require.NoError(t, err)
	assert.Empty(t, why)
	assert.Equal(t, 2, st.Seq)
}

func mustEncode(t testing.TB) string {
	m, err := Encode(sampleState())
	require.NoError(t, err)
	return m
}
