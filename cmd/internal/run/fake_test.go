package run

import (
	"crypto/sha256"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// trustedComment converts a comment of the fake for state.Check.
func trustedComment(c ghfake.CommentView) state.Comment {
	return state.Comment{ID: c.ID, Author: c.Author, ViewerDidAuthor: c.Author == ghfake.BotLogin,
		Edited: !c.LastEditedAt.IsZero(), Editor: c.Editor, Body: c.Body}
}

// noise is n characters that gzip cannot shrink much, the same for the same seed.
func noise(seed string, n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	out := make([]byte, 0, n)
	sum := sha256.Sum256([]byte(seed))
	for len(out) < n {
		for _, b := range sum {
			if len(out) == n {
				break
			}
			out = append(out, alphabet[b&63])
		}
		sum = sha256.Sum256(sum[:])
	}
	return string(out)
}
