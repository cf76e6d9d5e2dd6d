package state

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

// fakeWriter records the calls a CommentStore makes.
type fakeWriter struct {
	calls  []string
	nextID int64
	err    error
}

func (f *fakeWriter) CreateComment(_ context.Context, number int, body string) (int64, error) {
	f.calls = append(f.calls, fmt.Sprintf("create #%d %q", number, body))
	return f.nextID, f.err
}

func (f *fakeWriter) UpdateComment(_ context.Context, id int64, body string) error {
	f.calls = append(f.calls, fmt.Sprintf("update %d %q", id, body))
	return f.err
}

var _ CommentWriter = (*fakeWriter)(nil)

func TestCommentStoreLoad(t *testing.T) {
	good, err := Encode(sampleState())
	require.NoError(t, err)
	other, err := Encode(&engine.State{Version: 1, Subject: "evil#1", Seq: 99})
	require.NoError(t, err)
	ours := func(id int64, body string) Comment {
		return Comment{ID: id, Author: "github-actions[bot]", ViewerDidAuthor: true, Body: body}
	}
	tests := []struct {
		name     string
		comments []Comment
		wantSeq  int
		wantVer  Version
		wantErr  string
		wantLogs []string
	}{
		{name: "no comments", wantVer: Version{}},
		{name: "no marker", comments: []Comment{ours(1, "hello"), {ID: 2, Author: "dev", Body: "LGTM"}}},
		{name: "trusted", comments: []Comment{{ID: 1, Author: "dev", Body: "hi"}, ours(5, "status\n"+good)},
			wantSeq: 3, wantVer: Version{CommentID: 5, Body: "status\n" + good}},
		{name: "untrusted ignored", comments: []Comment{{ID: 123, Author: "mallory", Body: other}},
			wantLogs: []string{"ignoring state marker in comment 123 by mallory: not written by this action"}},
		{name: "untrusted before trusted", comments: []Comment{{ID: 123, Author: "mallory", Body: other}, ours(7, good)},
			wantSeq: 3, wantVer: Version{CommentID: 7, Body: good},
			wantLogs: []string{"ignoring state marker in comment 123 by mallory: not written by this action"}},
		{name: "first trusted wins", comments: []Comment{ours(7, good), ours(8, other)},
			wantSeq: 3, wantVer: Version{CommentID: 7, Body: good}},
		{name: "corrupt", comments: []Comment{ours(9, good[:len(good)/2]+" -->")}, wantErr: "reading state comment 9 on #7"},
		{name: "unknown version", comments: []Comment{ours(9, "<!-- pipeline-action:state v2 abc -->")}, wantErr: `unsupported version "v2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs []string
			w := &fakeWriter{}
			s := NewCommentStore(w, tt.comments, func(format string, args ...any) {
				logs = append(logs, fmt.Sprintf(format, args...))
			})
			st, v, err := s.Load(context.Background(), 7)
			assert.Equal(t, tt.wantLogs, logs)
			assert.Empty(t, w.calls, "Load makes no API call")
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Nil(t, st, "never a silent empty state")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantVer, v)
			assert.Equal(t, 1, st.Version)
			assert.Equal(t, tt.wantSeq, st.Seq)
		})
	}
}

func TestCommentStoreSave(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	tests := []struct {
		name      string
		comments  []Comment
		v         Version
		body      string
		writerErr error
		want      Version
		wantCalls []string
		wantErr   error
	}{
		{name: "unchanged", v: Version{CommentID: 5, Body: "same"}, body: "same",
			want: Version{CommentID: 5, Body: "same"}},
		{name: "create", body: "new", want: Version{CommentID: 42, Body: "new"},
			wantCalls: []string{`create #7 "new"`}},
		{name: "update", v: Version{CommentID: 5, Body: "old"}, body: "new",
			want: Version{CommentID: 5, Body: "new"}, wantCalls: []string{`update 5 "new"`}},
		{name: "create fails", body: "new", writerErr: boom, wantCalls: []string{`create #7 "new"`}, wantErr: boom},
		{name: "update fails", v: Version{CommentID: 5, Body: "old"}, body: "new", writerErr: boom,
			wantCalls: []string{`update 5 "new"`}, wantErr: boom},
		{name: "create over a known state comment", comments: []Comment{{ID: 5, ViewerDidAuthor: true, Body: mustEncode(t)}},
			body: "new", wantErr: ErrConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &fakeWriter{nextID: 42, err: tt.writerErr}
			s := NewCommentStore(w, tt.comments, nil)
			_, _, err := s.Load(ctx, 7)
			require.NoError(t, err)
			got, err := s.Save(ctx, 7, tt.body, tt.v)
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

func TestCommentStoreCreateThenSave(t *testing.T) {
	ctx := context.Background()
	w := &fakeWriter{nextID: 42}
	s := NewCommentStore(w, nil, nil)
	_, v, err := s.Load(ctx, 7)
	require.NoError(t, err)
	v, err = s.Save(ctx, 7, "one", v)
	require.NoError(t, err)
	_, err = s.Save(ctx, 7, "two", Version{})
	require.ErrorIs(t, err, ErrConflict, "a second create in one invocation")
	v, err = s.Save(ctx, 7, "two", v)
	require.NoError(t, err)
	_, err = s.Save(ctx, 7, "two", v)
	require.NoError(t, err)
	assert.Equal(t, []string{`create #7 "one"`, `update 42 "two"`}, w.calls)
}

func mustEncode(t *testing.T) string {
	m, err := Encode(sampleState())
	require.NoError(t, err)
	return m
}
