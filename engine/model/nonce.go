package model

import "strings"

// SignedNonce is nonce, of an attempt of stage stageID of run runID on subject, as its
// dispatch sends it: with signer (the state key), "<nonce>.<signature>"; else as it is.
func SignedNonce(signer NonceSigner, subject, runID, stageID, nonce string) string {
	if signer == nil || nonce == "" {
		return nonce
	}
	return nonce + "." + signer.SignNonce(NonceMessage(subject, runID, stageID, nonce))
}

// NonceMessage is what a nonce's signature covers.
func NonceMessage(subject, run, stage, nonce string) string {
	return strings.Join([]string{"pipeline-action:nonce v1", subject, run, stage, nonce}, "\x00")
}

// NonceSigner signs and verifies with the state key (state.Keys).
type NonceSigner interface {
	SignNonce(msg string) string
	VerifyNonce(msg, tag string) bool
}
