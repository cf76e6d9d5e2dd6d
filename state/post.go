package state

import (
	"context"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// A new state comment is bound to its own id, which GitHub tells only once the comment
// exists: posting it takes two calls, the placeholder and the edit that binds the state
// into it (CommentStore.Write). Where the branch holds the state, the placeholder carries
// the whole status already, and its binding can wait for the next event that edits the
// comment, which adopts it through the claim it is posted under — one call
// instead of two — as long as the state holds nothing a lost state would repeat: while
// no run has performed an effect or holds an intent, a state lost with the branch before
// that edit is the one the facts give again (the runs start again where they stood).
// Otherwise the comment is the spare copy of what is done, and it is bound at once.

// BindLater lets d post a new state comment in one call where it may (see above): the
// caller's next events load the state through a Dual, which adopts the placeholder.
func (d *Dual) BindLater() { d.later = true }

// nothingDone reports whether st holds no effect performed or intended, and nothing else
// the facts would not give again: no finished run, command acted on or refused, follower,
// shared variable or pipeline enabled.
func nothingDone(st *engine.State) bool {
	for _, r := range st.Runs {
		if len(r.Applied) > 0 || len(r.Intents) > 0 {
			return false
		}
	}
	return len(st.Past) == 0 && st.CommandsSeen == 0 && len(st.Refused) == 0 && len(st.Followers) == 0 && len(st.Shared) == 0 &&
		len(st.Enabled) == 0
}

// postOnly posts the state comment's placeholder, carrying nonce, and leaves its binding
// to the next event (see above). v must be the zero Version.
func (s *CommentStore) postOnly(ctx context.Context, number int, body string, v Version, nonce string) (Version, error) {
	if v.CommentID != 0 {
		return s.write(ctx, number, body, v, nonce)
	}
	return s.post(ctx, number, body, nonce)
}

// waits reports whether the placeholder read (placeholder) may stay as it is for the
// save of body, the status of st: the file's claim names it, it shows that status
// already, the branch holds the state, and st still holds nothing a lost state would
// repeat — as when it went up.
func (d *Dual) waits(placeholder, body string, st *engine.State) bool {
	nonce := placeholderNonce(placeholder)
	shown, ok := strings.CutSuffix(placeholder, "\n\n"+placeholderMarker(nonce))
	own := d.adopt != nil && d.adopt.Body == placeholder // the one the file's claim names
	return ok && own && d.later && !d.forbidden && nothingDone(st) && shown == Human(body)
}
