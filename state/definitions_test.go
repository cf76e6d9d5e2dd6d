package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefinitionsKeepSinceOfUnchangedPipelines(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(48 * time.Hour)
	since, w := Definitions(nil, "bot", nil, map[string]string{"a": "h1", "b": "h2"}, t0)
	require.NotNil(t, w)
	assert.Equal(t, DefinitionsFile, w.Path)
	assert.Equal(t, t0, since["a"])

	read := &BranchFile{Path: DefinitionsFile, Text: w.Text, Author: "bot", Signed: true}
	since, w = Definitions(read, "bot", nil, map[string]string{"a": "h1", "b": "h2-edited"}, t1)
	assert.True(t, since["a"].Equal(t0), "a's definition did not change: %v", since["a"])
	assert.True(t, since["b"].Equal(t1), "b's did: %v", since["b"])
	require.NotNil(t, w, "the record changes")

	read.Text = w.Text
	_, w = Definitions(read, "bot", nil, map[string]string{"a": "h1", "b": "h2-edited"}, t1)
	assert.Nil(t, w, "a record up to date is not written again")
}

func TestDefinitionsUntrustedOrUnknown(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	forged := &BranchFile{Path: DefinitionsFile, Author: "mallory", Signed: false,
		Text: `{"version":1,"pipelines":{"a":{"hash":"h1","since":"2000-01-01T00:00:00Z"}}}`}
	since, w := Definitions(forged, "bot", nil, map[string]string{"a": "h1"}, t0)
	assert.True(t, since["a"].Equal(t0), "a record pushed by someone else is not believed")
	assert.NotNil(t, w)

	since, w = Definitions(nil, "bot", nil, map[string]string{"a": "h1"}, time.Time{})
	assert.Nil(t, since)
	assert.Nil(t, w, "without the config's time nothing is recorded")
}

// With a state key the record is signed with it: one the action's identity wrote without
// the key — another workflow sharing its token — is not believed, nor one signed with
// another key; the action's own signed record is.
func TestDefinitionsSignedWithTheStateKey(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(48 * time.Hour)
	keys, err := NewKeys("0123456789abcdef-definitions")
	require.NoError(t, err)
	other, err := NewKeys("fedcba9876543210-definitions")
	require.NoError(t, err)
	hashes := map[string]string{"a": "h1"}

	_, w := Definitions(nil, "bot", keys, hashes, t0)
	require.NotNil(t, w)
	assert.Contains(t, w.Text, `"state_hmac"`)
	own := &BranchFile{Path: DefinitionsFile, Text: w.Text, Author: "bot", Signed: true}
	since, w := Definitions(own, "bot", keys, hashes, t1)
	assert.True(t, since["a"].Equal(t0), "its own signed record is believed: %v", since["a"])
	assert.Nil(t, w)

	_, unsignedW := Definitions(nil, "bot", nil, hashes, t0)
	unsigned := &BranchFile{Path: DefinitionsFile, Text: unsignedW.Text, Author: "bot", Signed: true}
	since, w = Definitions(unsigned, "bot", keys, hashes, t1)
	assert.True(t, since["a"].Equal(t1), "unsigned: not believed: %v", since["a"])
	assert.NotNil(t, w, "rewritten, signed")
	_, otherW := Definitions(nil, "bot", other, hashes, t0)
	f := &BranchFile{Path: DefinitionsFile, Text: otherW.Text, Author: "bot", Signed: true}
	since, _ = Definitions(f, "bot", keys, hashes, t1)
	assert.True(t, since["a"].Equal(t1), "signed with another key: not believed: %v", since["a"])
}
