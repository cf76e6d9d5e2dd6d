package state

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckTrusted(t *testing.T) {
	body := boundBody(t, sampleState(), 6_000_000_001)
	st, why, err := Check(ours(6_000_000_001, body))
	require.NoError(t, err)
	require.Empty(t, why)
	assert.Equal(t, sampleState(), st)

	st, why, err = Check(ours(6_000_000_001, body+"\n\n"))
	require.NoError(t, err)
	assert.Empty(t, why, "trailing white space is not text")
	assert.NotNil(t, st)
}

func TestEditedByOther(t *testing.T) {
	assert.False(t, Comment{Author: "a"}.EditedByOther())
	assert.False(t, Comment{Author: "a", Edited: true, Editor: "a"}.EditedByOther())
	assert.True(t, Comment{Author: "a", Edited: true, Editor: "b"}.EditedByOther())
	assert.True(t, Comment{Author: "a", Edited: true}.EditedByOther(), "an editor GitHub no longer names")
}

// FuzzTrust holds Check to its promise: it never panics, and it trusts a comment only
// when the action wrote and last edited it and its marker is bound to this comment and
// to exactly the text before it; changing any byte of that text breaks the trust.
func FuzzTrust(f *testing.F) {
	good := boundBody(f, sampleState(), 5_000_000_001)
	f.Add(good, int64(5_000_000_001), viewer, true, true)
	f.Add(good, int64(5_000_000_002), viewer, true, true)
	f.Add(good, int64(5_000_000_001), "mallory", true, true)
	f.Add(good, int64(5_000_000_001), "", false, true)
	f.Add(good+"tail", int64(5_000_000_001), viewer, true, true)
	f.Add("x\n"+mustEncode(f), int64(0), viewer, true, true)
	f.Add(sealMarker("", 3, "!!!!"), int64(3), viewer, true, true)
	f.Add(markerPrefix+"v5 1 a b -->", int64(1), viewer, true, false)
	f.Add(markerPrefix+"v3 1 - a b -->", int64(1), viewer, true, false)
	f.Fuzz(func(t *testing.T, body string, id int64, editor string, edited, ownAuthor bool) {
		c := Comment{ID: id, Author: viewer, ViewerDidAuthor: ownAuthor, Edited: edited, Editor: editor, Body: body}
		st, why, err := Check(c)
		if err != nil || why != "" {
			assert.Nil(t, st)
			assert.False(t, err != nil && why != "", "an error or a reason, not both")
			return
		}
		require.NotNil(t, st)
		require.True(t, ownAuthor && edited && editor == viewer, "trusted only when written and last edited by the action")
		m, found, err := parseMarker(body)
		require.NoError(t, err)
		require.True(t, found)
		require.Equal(t, id, m.id, "bound to this comment")
		before := body[:m.start]
		require.Equal(t, before+seal(before, id, m.Commit(), m.payload), body[:m.end], "bound to the text before it")
		require.Empty(t, strings.TrimSpace(body[m.end:]))
		if len(before) > 0 {
			b := []byte(body)
			b[int(uint64(id)%uint64(len(before)))] ^= 0x01
			c.Body = string(b)
			_, why, _ := Check(c)
			assert.NotEmpty(t, why, "a changed byte of the status breaks the binding")
		}
	})
}
