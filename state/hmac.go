package state

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Keys are the state key (the action's `state_key` input) and, during a rotation, the
// keys it replaces (`state_key_previous`). With a key, every state the action writes
// carries an HMAC-SHA256 made with the current key, and a state is trusted only when its
// HMAC verifies with the current key or a previous one: a workflow of the repository that
// shares the action's identity (GITHUB_TOKEN) but not the key cannot write a state the
// action trusts.
//
// What is signed is exactly what is trusted:
//   - in the state comment, the v4 marker's HMAC covers what its binding covers (the
//     version, the comment id, the state-branch commit, the payload and the text before
//     the marker), so a signed marker verifies only in the comment it was made for;
//   - on the state branch, the HMAC of a subject's file covers the subject (owner/repo#N),
//     the file's path and every byte of the file but the HMAC itself.
//
// A nil *Keys is no key: states are trusted on the action's identity alone, as before,
// except a signed one: it was written by an action that has a key, and an invocation
// without it (a workflow not given the secret, or a forger) must neither go on from it
// nor overwrite it, nor start over beside it: the stores' Load stops with a
// *SignedStateError.
type Keys struct {
	current  []byte
	previous [][]byte
}

// MinKeyLen is the fewest characters a state key may have.
const MinKeyLen = 16

// NewKeys returns the keys for current and previous ones; nil (no key) when current is
// empty and no previous key is given. A previous key without a current one, or a key
// shorter than MinKeyLen, is an error.
func NewKeys(current string, previous ...string) (*Keys, error) {
	var prev [][]byte
	for _, p := range previous {
		if p == "" {
			continue
		}
		if len(p) < MinKeyLen {
			return nil, fmt.Errorf("a previous state key is %d characters long; a state key has at least %d (generate one with `openssl rand -hex 32`)", len(p), MinKeyLen)
		}
		prev = append(prev, []byte(p))
	}
	switch {
	case strings.ContainsAny(current, " \t\r\n"):
		return nil, errors.New("the state key holds white space; give one word (`openssl rand -hex 32`)")
	case current == "" && len(prev) > 0:
		return nil, errors.New("a previous state key is given without a current one (state_key): the previous key only verifies states while the current one signs them")
	case current == "":
		return nil, nil
	case len(current) < MinKeyLen:
		return nil, fmt.Errorf("the state key is %d characters long; it needs at least %d (generate one with `openssl rand -hex 32`)", len(current), MinKeyLen)
	}
	return &Keys{current: []byte(current), previous: prev}, nil
}

// Set reports whether a key is configured.
func (k *Keys) Set() bool { return k != nil && len(k.current) > 0 }

// sign returns the HMAC of msg with the current key, in lower-case hex.
func (k *Keys) sign(msg []byte) string { return hex.EncodeToString(mac(k.current, msg)) }

// verify reports whether sum (lower-case hex) is the HMAC of msg with the current key or
// a previous one.
func (k *Keys) verify(msg []byte, sum string) bool {
	got, err := hex.DecodeString(sum)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	ok := hmac.Equal(got, mac(k.current, msg))
	for _, p := range k.previous {
		ok = hmac.Equal(got, mac(p, msg)) || ok
	}
	return ok
}

func mac(key, msg []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(msg)
	return h.Sum(nil)
}

// isHexSum reports whether s is a SHA-256 sized digest in lower-case hex.
func isHexSum(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == sha256.Size && s == strings.ToLower(s)
}

// Why a state is not trusted when a key is set, in words for the status.
const (
	whyUnsigned = "it carries no signature made with the state key (state_key is set: it was written without the key, or before the key was configured)"
	whyBadSig   = "its signature does not verify with the state key (it was signed with another key, or changed after it was signed)"
	whyNoKey    = "it is signed with a state key, and this workflow was given none (pass the same state_key secret to every workflow that runs the action)"
)

// The state file's signature: the file's JSON object with one more member at its end,
//
//	"state_hmac": "<hex>"
//
// the HMAC of fileMessage over the file without that member. DecodeFile strips it.
const (
	fileMACPrefix = ",\n  \"state_hmac\": \""
	fileMACSuffix = "\"\n}\n"
	fileEnd       = "\n}\n"
)

// fileMessage is what a state file's HMAC covers: the subject, the file's path and its
// text without the HMAC.
func fileMessage(subject, path, unsigned string) []byte {
	return []byte(fmt.Sprintf("pipeline-action:state-file v1\x00%s\x00%s\x00%d\x00%s", subject, path, len(unsigned), unsigned))
}

// SignFile returns text (as EncodeFile writes it) signed for subject's file at path with
// the current key; text as it is when no key is set.
func SignFile(text, path, subject string, k *Keys) (string, error) {
	if !k.Set() {
		return text, nil
	}
	if !strings.HasSuffix(text, fileEnd) || strings.HasSuffix(text, "{"+fileEnd) {
		return "", fmt.Errorf("signing %s: not a state file as EncodeFile writes it", path)
	}
	return text[:len(text)-len(fileEnd)] + fileMACPrefix + k.sign(fileMessage(subject, path, text)) + fileMACSuffix, nil
}

// splitFileMAC returns text without its signature, and the signature ("" when it has none).
func splitFileMAC(text string) (unsigned, sum string) {
	if !strings.HasSuffix(text, fileMACSuffix) {
		return text, ""
	}
	i := strings.LastIndex(text, fileMACPrefix)
	if i < 0 {
		return text, ""
	}
	sum = text[i+len(fileMACPrefix) : len(text)-len(fileMACSuffix)]
	if !isHexSum(sum) {
		return text, ""
	}
	return text[:i] + fileEnd, sum
}

// VerifyFile says why subject's state file at path is not trusted under the keys k, ""
// when it is: with a key, its signature must verify; without one, it must carry none.
func VerifyFile(text, path, subject string, k *Keys) string {
	unsigned, sum := splitFileMAC(text)
	switch {
	case !k.Set() && sum != "":
		return path + ": " + whyNoKey
	case !k.Set():
		return ""
	case sum == "":
		return path + ": " + whyUnsigned
	case !k.verify(fileMessage(subject, path, unsigned), sum):
		return path + ": " + whyBadSig
	}
	return ""
}

// checkMarkerKey says why marker m, found after before, is not trusted under the keys k,
// "" when it is (its binding already verified).
func checkMarkerKey(m marker, before string, k *Keys) string {
	switch {
	case !k.Set() && m.version == markerV4:
		return whyNoKey
	case !k.Set():
		return ""
	case m.version != markerV4:
		return whyUnsigned
	case !k.verify(bindingMessage(m.version, before, m.id, m.commit, m.payload), m.mac):
		return whyBadSig
	}
	return ""
}

// SetKeys makes the comment store sign what it writes with k and trust only what
// verifies with it (nil: no key).
func (s *CommentStore) SetKeys(k *Keys) { s.keys = k }

// SetKeys makes the branch store sign the subject's file with k and trust it only when
// it verifies with it (nil: no key).
func (s *BranchStore) SetKeys(k *Keys) { s.keys = k }

// SetKeys sets the state keys of both stores.
func (d *Dual) SetKeys(k *Keys) {
	d.Branch.SetKeys(k)
	d.Comments.SetKeys(k)
}
