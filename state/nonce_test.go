package state

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var _ model.NonceSigner = (*Keys)(nil)

// A nonce signed with a key verifies with it, and with the keys of a rotation that
// replaces it; not with another key, nor for another message.
func TestNonceSignedWithTheStateKey(t *testing.T) {
	old, err := NewKeys("the-old-key-0123456789")
	require.NoError(t, err)
	tag := old.SignNonce("acme/widgets#7\x00loop/7/1\x00implement\x001-00ff")
	assert.Regexp(t, `^[0-9a-f]{64}$`, tag)
	assert.True(t, old.VerifyNonce("acme/widgets#7\x00loop/7/1\x00implement\x001-00ff", tag))
	assert.False(t, old.VerifyNonce("acme/widgets#7\x00loop/7/2\x00implement\x001-00ff", tag))
	assert.False(t, old.VerifyNonce("acme/widgets#7\x00loop/7/1\x00implement\x001-00ff", "not hex"))

	rotated, err := NewKeys("the-new-key-0123456789", "the-old-key-0123456789")
	require.NoError(t, err)
	assert.True(t, rotated.VerifyNonce("acme/widgets#7\x00loop/7/1\x00implement\x001-00ff", tag), "a previous key verifies")
	assert.NotEqual(t, tag, rotated.SignNonce("acme/widgets#7\x00loop/7/1\x00implement\x001-00ff"), "the current key signs")

	other, err := NewKeys("another-key-0123456789")
	require.NoError(t, err)
	assert.False(t, other.VerifyNonce("acme/widgets#7\x00loop/7/1\x00implement\x001-00ff", tag))
}
