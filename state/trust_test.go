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
// to exactly the text before it; changing any byte of that text breaks the trust. keyed
// runs it under a state key (CheckKeyed): then only a v4 marker whose HMAC is the key's
// over exactly those bytes is trusted; without a key, a v4 marker never is.
func FuzzTrust(f *testing.F) {
	key := mustKeys(f, keyA)
	good := boundBody(f, sampleState(), 5_000_000_001)
	signed := signedBody(f, sampleState(), 5_000_000_001, key)
	other := signedBody(f, sampleState(), 5_000_000_001, mustKeys(f, keyB))
	for _, keyed := range []bool{false, true} {
		f.Add(good, int64(5_000_000_001), viewer, true, true, keyed)
		f.Add(signed, int64(5_000_000_001), viewer, true, true, keyed)
		f.Add(other, int64(5_000_000_001), viewer, true, true, keyed)
		f.Add(signed, int64(5_000_000_002), viewer, true, true, keyed)
		f.Add(signed+"tail", int64(5_000_000_001), viewer, true, true, keyed)
		f.Add(markerPrefix+"v4 1 - a b c -->", int64(1), viewer, true, true, keyed)
	}
	f.Add(good, int64(5_000_000_002), viewer, true, true, false)
	f.Add(good, int64(5_000_000_001), "mallory", true, true, false)
	f.Add(good, int64(5_000_000_001), "", false, true, false)
	f.Add(good+"tail", int64(5_000_000_001), viewer, true, true, false)
	f.Add("x\n"+mustEncode(f), int64(0), viewer, true, true, false)
	f.Add(sealMarker("", 3, "!!!!"), int64(3), viewer, true, true, false)
	f.Add(markerPrefix+"v5 1 a b -->", int64(1), viewer, true, false, false)
	f.Add(markerPrefix+"v3 1 - a b -->", int64(1), viewer, true, false, false)
	f.Fuzz(func(t *testing.T, body string, id int64, editor string, edited, ownAuthor, keyed bool) {
		var keys *Keys
		if keyed {
			keys = key
		}
		c := Comment{ID: id, Author: viewer, ViewerDidAuthor: ownAuthor, Edited: edited, Editor: editor, Body: body}
		st, why, err := CheckKeyed(c, keys)
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
		switch {
		case keyed:
			require.Equal(t, markerV4, m.version, "under a key, only a signed marker")
			require.Equal(t, before+sealKeyed(before, id, m.Commit(), m.payload, key), body[:m.end], "signed with the key over the text before it")
		default:
			require.NotEqual(t, markerV4, m.version, "without a key, a signed marker is not trusted")
			require.Equal(t, before+seal(before, id, m.Commit(), m.payload), body[:m.end], "bound to the text before it")
		}
		require.Empty(t, strings.TrimSpace(body[m.end:]))
		if len(before) > 0 {
			b := []byte(body)
			b[int(uint64(id)%uint64(len(before)))] ^= 0x01
			c.Body = string(b)
			_, why, _ := CheckKeyed(c, keys)
			assert.NotEmpty(t, why, "a changed byte of the status breaks the binding")
		}
		if keyed {
			// The same state, bound by a forger without the key: never trusted.
			c.Body = before + seal(before, id, m.Commit(), m.payload)
			_, why, _ := CheckKeyed(c, keys)
			assert.Equal(t, whyUnsigned, why)
		}
	})
}
