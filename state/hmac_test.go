package state

import (
	"strconv"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	keyA = "state-key-A-0123456789abcdef"
	keyB = "state-key-B-fedcba9876543210"
)

func mustKeys(t testing.TB, current string, previous ...string) *Keys {
	t.Helper()
	k, err := NewKeys(current, previous...)
	require.NoError(t, err)
	require.True(t, k.Set())
	return k
}

// signedBody is the state comment a keyed Save writes for st into comment id.
func signedBody(t testing.TB, st *model.State, id int64, k *Keys) string {
	t.Helper()
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	b, err := BindKeyed(body, id, k)
	require.NoError(t, err)
	return b
}

func TestNewKeys(t *testing.T) {
	k, err := NewKeys("")
	require.NoError(t, err)
	assert.Nil(t, k)
	assert.False(t, k.Set())
	_, err = NewKeys("short")
	assert.ErrorContains(t, err, "at least 16")
	assert.NotContains(t, err.Error(), "short", "the key is never in an error")
	_, err = NewKeys(keyA + "\n" + keyB)
	assert.ErrorContains(t, err, "white space")
	_, err = NewKeys("", keyA)
	assert.ErrorContains(t, err, "without a current one")
	_, err = NewKeys(keyA, "tiny")
	assert.ErrorContains(t, err, "previous state key is 4 characters")
	k, err = NewKeys(keyA, "", keyB)
	require.NoError(t, err)
	assert.Len(t, k.previous, 1)
}

func TestMarkerSignedRoundTrip(t *testing.T) {
	a := mustKeys(t, keyA)
	body := signedBody(t, sampleState(), 6_000_000_001, a)
	assert.Contains(t, body, markerPrefix+"v4 6000000001 - ")
	assert.NotContains(t, body, keyA)
	assert.LessOrEqual(t, len(body), MaxCommentLen)

	st, why, err := CheckKeyed(ours(6_000_000_001, body), a)
	require.NoError(t, err)
	require.Empty(t, why)
	assert.Equal(t, sampleState(), st)

	// Without a key, a signed state is not trusted: a workflow not given the key (or a
	// forger) neither goes on from it nor overwrites it. Decode still reads it.
	st, why, err = Check(ours(6_000_000_001, body))
	require.NoError(t, err)
	assert.Equal(t, whyNoKey, why)
	assert.Nil(t, st)
	dst, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, sampleState(), dst)

	// The commit the marker names survives signing.
	c := strings.Repeat("c", 40)
	withC, err := WithCommit(body, c)
	require.NoError(t, err)
	bound, err := BindKeyed(withC, 6_000_000_001, a)
	require.NoError(t, err)
	assert.Equal(t, c, MarkerCommit(bound))
	_, why, err = CheckKeyed(ours(6_000_000_001, bound), a)
	require.NoError(t, err)
	assert.Empty(t, why)
}

func TestMarkerUntrustedUnderKey(t *testing.T) {
	a := mustKeys(t, keyA)
	const id = 6_000_000_001
	signed := signedBody(t, sampleState(), id, a)
	m, found, err := parseMarker(signed)
	require.NoError(t, err)
	require.True(t, found)
	before := signed[:m.start]

	// A forger with the action's identity but not the key: it can compute the binding,
	// not the HMAC.
	forged := &model.State{Version: 1, Subject: "acme/widgets#7", Seq: 99}
	forgedPayload, err := encodePayload(forged)
	require.NoError(t, err)
	reseal := func(before string, id int64, payload, mac string) string {
		return before + markerPrefix + "v4 " + strconv.FormatInt(id, 10) + " - " + binding(markerV4, before, id, noCommit, payload) + " " + mac + " " + payload + markerSuffix
	}
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	cases := []struct {
		name, body string
		keys       *Keys
		want       string
	}{
		{"unsigned", boundBody(t, sampleState(), id), a, whyUnsigned},
		{"signed with another key", signedBody(t, sampleState(), id, mustKeys(t, keyB)), a, whyBadSig},
		{"another payload, binding recomputed, HMAC kept", reseal(before, id, forgedPayload, m.mac), a, whyBadSig},
		{"another status text, binding recomputed", reseal("### all good\n", id, m.payload, m.mac), a, whyBadSig},
		{"HMAC changed", reseal(before, id, m.payload, flip(m.mac, 3)), a, whyBadSig},
		{"HMAC of a v3 marker", strings.Replace(signed, markerPrefix+"v4", markerPrefix+"v3", 1), a, "its state marker is malformed"},
		{"status text changed", strings.Replace(signed, "auto-merge", "auto-merge!", 1), a, "its text does not match its state marker (changed after this action wrote it)"},
		{"a previous key no longer given", signedBody(t, sampleState(), id, mustKeys(t, keyB)), mustKeys(t, keyA), whyBadSig},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, why, err := CheckKeyed(ours(id, tc.body), tc.keys)
			require.NoError(t, err)
			assert.Nil(t, st)
			assert.Equal(t, tc.want, why)
		})
	}

	// Copied into another comment, its id recomputed in the binding: the HMAC binds the id.
	copied := reseal(before, id+1, m.payload, m.mac)
	_, why, err := CheckKeyed(ours(id+1, copied), a)
	require.NoError(t, err)
	assert.Equal(t, whyBadSig, why)
	// As it is, in another comment: the id it names is not that comment's.
	_, why, err = CheckKeyed(ours(id+1, signed), a)
	require.NoError(t, err)
	assert.Equal(t, "its state marker belongs to comment 6000000001 (copied)", why)
	// The forger with the key: trusted (the key is the secret).
	_, why, err = CheckKeyed(ours(id, reseal(before, id, forgedPayload, a.sign(bindingMessage(markerV4, before, id, noCommit, forgedPayload)))), a)
	require.NoError(t, err)
	assert.Empty(t, why)
}

func TestMarkerRotation(t *testing.T) {
	const id = 6_000_000_001
	old := signedBody(t, sampleState(), id, mustKeys(t, keyB))
	rotating := mustKeys(t, keyA, keyB)
	st, why, err := CheckKeyed(ours(id, old), rotating)
	require.NoError(t, err)
	require.Empty(t, why, "a previous key verifies")
	assert.Equal(t, sampleState(), st)
	// Written again, it is signed with the current key.
	again, err := BindKeyed(old, id, rotating)
	require.NoError(t, err)
	assert.NotEqual(t, old, again)
	_, why, err = CheckKeyed(ours(id, again), mustKeys(t, keyA))
	require.NoError(t, err)
	assert.Empty(t, why)
	_, why, err = CheckKeyed(ours(id, again), mustKeys(t, keyB))
	require.NoError(t, err)
	assert.Equal(t, whyBadSig, why, "the previous key alone does not verify what the current one signed")
}

func TestFileSignedRoundTrip(t *testing.T) {
	a := mustKeys(t, keyA)
	text, err := EncodeFile(sampleState())
	require.NoError(t, err)
	same, err := SignFile(text, "pr-7.json", "acme/widgets#7", nil)
	require.NoError(t, err)
	assert.Equal(t, text, same, "no key, no signature")
	signed, err := SignFile(text, "pr-7.json", "acme/widgets#7", a)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(signed, text[:len(text)-len(fileEnd)]))
	assert.Regexp(t, `,\n  "state_hmac": "[0-9a-f]{64}"\n}\n$`, signed)
	assert.NotContains(t, signed, keyA)

	assert.Empty(t, VerifyFile(signed, "pr-7.json", "acme/widgets#7", a))
	assert.Equal(t, "pr-7.json: "+whyNoKey, VerifyFile(signed, "pr-7.json", "acme/widgets#7", nil), "no key: a signed file is not trusted")
	assert.Empty(t, VerifyFile(text, "pr-7.json", "acme/widgets#7", nil), "no key, no signature: as before")
	assert.Empty(t, VerifyFile(signed, "pr-7.json", "acme/widgets#7", mustKeys(t, keyB, keyA)), "a previous key verifies")
	st, err := DecodeFile(signed, "acme/widgets#7")
	require.NoError(t, err, "the signature is not an unknown field")
	assert.Equal(t, sampleState(), st)

	flipped := []byte(signed)
	i := strings.Index(signed, `"seq"`) + 1
	flipped[i] ^= 0x20 // "Seq": still valid JSON text, another byte
	cases := []struct {
		name, text, path, subject string
		keys                      *Keys
		want                      string
	}{
		{"unsigned", text, "pr-7.json", "acme/widgets#7", a, "pr-7.json: " + whyUnsigned},
		{"another key", signed, "pr-7.json", "acme/widgets#7", mustKeys(t, keyB), "pr-7.json: " + whyBadSig},
		{"a byte changed", string(flipped), "pr-7.json", "acme/widgets#7", a, "pr-7.json: " + whyBadSig},
		{"copied to another subject", signed, "pr-8.json", "acme/widgets#8", a, "pr-8.json: " + whyBadSig},
		{"an issue's file of the same number", signed, "issue-7.json", "acme/widgets#7", a, "issue-7.json: " + whyBadSig},
		{"signature not at the end", strings.Replace(signed, `"version"`, `"state_hmac": "`+strings.Repeat("0", 64)+`", "version"`, 1)[:len(signed)-3] + "\n}\n", "pr-7.json", "acme/widgets#7", a, "pr-7.json: " + whyUnsigned},
		{"signature malformed", strings.Replace(signed, `"state_hmac": "`, `"state_hmac": "x`, 1), "pr-7.json", "acme/widgets#7", a, "pr-7.json: " + whyUnsigned},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, VerifyFile(tc.text, tc.path, tc.subject, tc.keys))
		})
	}
}

// keyedStores are subjectStores with the keys k.
func keyedStores(m *memBranch, w *fakeWriter, comments []Comment, logs *[]string, k *Keys) *Dual {
	d := subjectStores(m, w, comments, logs)
	d.SetKeys(k)
	return d
}

func TestDualSignedRoundTrip(t *testing.T) {
	ctx := t.Context()
	a := mustKeys(t, keyA)
	next := sampleState()
	m, w, logs := savedSubject(t, a, next)
	assert.Empty(t, VerifyFile(m.files["pr-7.json"], "pr-7.json", "acme/widgets#7", a))
	assert.Contains(t, w.bodies[1], markerPrefix+"v4 1 "+m.head+" ")

	// The next invocation with the key: trusted, nothing ignored, nothing written.
	m.calls, w.calls = nil, nil
	d := keyedStores(m, w, commentsOf(w), logs, a)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, next, st)
	assert.Empty(t, d.NewlyIgnored())
	_, err = d.Save(ctx, 7, change(st, st), v)
	require.NoError(t, err)
	assert.Empty(t, m.calls)
	assert.Empty(t, w.calls)

	// With another key: neither is trusted; both are reported; the state starts empty.
	d = keyedStores(m, w, commentsOf(w), logs, mustKeys(t, keyB))
	st, _, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Empty(t, st.Runs)
	require.Len(t, d.NewlyIgnored(), 2)
	assert.Equal(t, model.IgnoredComment{ID: 1, Why: whyBadSig}, d.NewlyIgnored()[0])
	assert.Equal(t, "pr-7.json: "+whyBadSig, d.NewlyIgnored()[1].Why)
	assert.Equal(t, m.last["pr-7.json"], d.NewlyIgnored()[1].Commit)

	// Without a key (a workflow not given the secret): it stops, and writes nothing;
	// the keyed action goes on from its signed state.
	d = subjectStores(m, w, commentsOf(w), logs)
	_, _, err = d.Load(ctx, 7)
	var signed *SignedStateError
	require.ErrorAs(t, err, &signed)
	d = keyedStores(m, w, commentsOf(w), logs, a)
	st, _, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, next.Runs, st.Runs)
}

// A file written by the action's identity (signed by GitHub) but without the key: with a
// key, the comment's state is the one gone on from, as for a file someone else wrote.
func TestDualUnsignedFileUnderKey(t *testing.T) {
	ctx := t.Context()
	a := mustKeys(t, keyA)
	next := sampleState()
	m, w, logs := savedSubject(t, a, next)

	forged := sampleState()
	forged.Seq = 1000
	forged.Runs[0].Stage = "merge"
	text, err := EncodeFile(forged)
	require.NoError(t, err)
	m.push(viewer, true, []FileChange{{Path: "pr-7.json", Text: text}}, "another workflow")

	d := keyedStores(m, w, commentsOf(w), logs, a)
	st, _, err := d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, next.Runs, st.Runs, "the signed comment's state, not the forged file's")
	assert.Equal(t, next.Seq, st.Seq)
	require.Len(t, d.NewlyIgnored(), 1)
	assert.Equal(t, "pr-7.json: "+whyUnsigned, d.NewlyIgnored()[0].Why)
}

// FuzzVerifyFile holds VerifyFile to its promise: it never panics, and under a key it
// trusts a file only when the file is exactly what SignFile makes of its unsigned bytes
// for this subject and path; without a key, only a file that carries no signature.
func FuzzVerifyFile(f *testing.F) {
	key := mustKeys(f, keyA)
	text, err := EncodeFile(sampleState())
	require.NoError(f, err)
	signed, err := SignFile(text, "pr-7.json", "acme/widgets#7", key)
	require.NoError(f, err)
	for _, keyed := range []bool{false, true} {
		f.Add(text, "pr-7.json", "acme/widgets#7", keyed)
		f.Add(signed, "pr-7.json", "acme/widgets#7", keyed)
		f.Add(signed, "pr-8.json", "acme/widgets#8", keyed)
		f.Add(signed+"\n", "pr-7.json", "acme/widgets#7", keyed)
		f.Add(",\n  \"state_hmac\": \""+strings.Repeat("a", 64)+"\"\n}\n", "pr-7.json", "acme/widgets#7", keyed)
	}
	f.Fuzz(func(t *testing.T, text, path, subject string, keyed bool) {
		var k *Keys
		if keyed {
			k = key
		}
		why := VerifyFile(text, path, subject, k)
		unsigned, sum := splitFileMAC(text)
		if why != "" {
			return
		}
		if !keyed {
			require.Empty(t, sum, "without a key, a signed file is not trusted")
			require.Equal(t, text, unsigned)
			return
		}
		require.NotEmpty(t, sum)
		again, err := SignFile(unsigned, path, subject, key)
		require.NoError(t, err)
		require.Equal(t, text, again, "trusted only as SignFile wrote it")
		if len(unsigned) > 0 {
			b := []byte(text)
			b[len(unsigned)/2] ^= 0x01
			assert.NotEmpty(t, VerifyFile(string(b), path, subject, k), "a changed byte breaks the signature")
		}
	})
}
