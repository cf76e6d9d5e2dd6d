package state

// The state key signs the nonce of each agent dispatch (engine.NonceSigner), so that a
// report made without the key cannot echo a nonce that the public state alone gives away.

// SignNonce returns the HMAC of msg with the current key, in lower-case hex.
func (k *Keys) SignNonce(msg string) string { return k.sign([]byte("pipeline-action:nonce\x00" + msg)) }

// VerifyNonce reports whether tag is SignNonce(msg) with the current key or a previous one.
func (k *Keys) VerifyNonce(msg, tag string) bool {
	return k.verify([]byte("pipeline-action:nonce\x00"+msg), tag)
}
