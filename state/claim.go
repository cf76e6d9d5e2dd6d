package state

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine"
)

// The state comment is posted once per subject, however many invocations find none at
// the same moment. GitHub creates no comment conditionally, so the state branch's
// compare-and-swap serialises the posting:
//
//   - An invocation that would post the state comment first writes a claim into the
//     subject's file, in the commit that saves its state: a random nonce, and until when
//     the claimer may still be posting (its deadline and engine.IntentGrace). Only the
//     invocation whose commit wins posts; the others read again and find the claim.
//   - The comment is posted as a placeholder that carries the nonce in a hidden marker,
//     then edited to hold the state marker bound to its id (CommentStore.Write).
//   - An invocation that finds a claim and no trusted state comment looks for the
//     claim's placeholder, the action's own comment carrying its nonce, edited by nobody
//     else, and adopts it: it edits its state in. A placeholder someone else edited is
//     not adopted; it is reported as ignored, as an edited state comment is.
//   - With no placeholder while the claim is in flight, the comment is left to the
//     claimer (the next event writes it); after the claim ended, or with no claim, the
//     invocation claims anew. A claim acted on (a comment of the action's carries its
//     nonce, or a state marker newer than the claim) is not in flight: its comment was
//     posted, and was since ignored.
//
// A claimer whose request to post was answered with an error ends its claim at once (a
// commit more), so the next event need not wait for it. Where the branch refuses the
// action, there is no claim: the workflow's concurrency group serialises the events,
// and the newest placeholder of the action's is adopted.

// Claim is an invocation's claim to post the subject's state comment, held in the
// subject's file on the state branch.
type Claim struct {
	Nonce string    `json:"nonce"`
	At    time.Time `json:"at"`    // when it was claimed
	Until time.Time `json:"until"` // when the claimer has certainly stopped posting
	// After is the newest comment id the claimer had read: a state comment of the
	// action's with a greater id was posted under this claim or a later one (comment
	// ids only grow), and the claim is no longer in flight.
	After int64 `json:"after,omitempty"`
}

// claimedFile is a subject's file: its state, and the claim to post its state comment.
type claimedFile struct {
	*engine.State
	Claim *Claim `json:"comment_claim,omitempty"`
	// Audit is the audit's tail.
	Audit *AuditTail `json:"audit,omitempty"`
}

// newClaim is a claim made at now by an invocation that stops at deadline (zero:
// unknown), bounded as engine intents are, that had read comments up to after.
func newClaim(now, deadline time.Time, after int64) *Claim {
	until := now.Add(engine.DefaultIntentLease + engine.IntentGrace)
	if !deadline.IsZero() && deadline.After(now) {
		until = deadline.Add(engine.IntentGrace)
		if limit := now.Add(engine.MaxIntentLease); until.After(limit) {
			until = limit
		}
	}
	return &Claim{Nonce: newNonce(), At: now.UTC(), Until: until.UTC(), After: after}
}

// inFlight reports whether the claimer may still be posting at now: before Until, and
// never longer than engine.MaxIntentLease after the claim (a clock gone wrong).
func (c *Claim) inFlight(now time.Time) bool {
	return c != nil && now.Before(c.Until) && now.Before(c.At.Add(engine.MaxIntentLease))
}

// newNonce is 16 random bytes in hex.
func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

const placeholderPrefix = "<!-- pipeline-action:placeholder "

// placeholderMarker is the hidden marker of a state comment's placeholder.
func placeholderMarker(nonce string) string { return placeholderPrefix + nonce + " -->" }

// placeholderNonce returns the nonce of body's placeholder marker, "" when it has none.
func placeholderNonce(body string) string {
	i := strings.LastIndex(body, placeholderPrefix)
	if i < 0 {
		return ""
	}
	rest := body[i+len(placeholderPrefix):]
	end := strings.Index(rest, " -->")
	if end < 0 {
		return ""
	}
	if f := strings.Fields(rest[:end]); len(f) == 1 {
		return f[0]
	}
	return ""
}

// findPlaceholders sets d.adopt and d.spare from the action's placeholders among the
// comments, and d.posted, and returns the placeholders someone else edited, to be
// ignored.
func (d *Dual) findPlaceholders() []engine.IgnoredComment {
	var ignored []engine.IgnoredComment
	claim := d.Branch.claim
	d.posted = false
	for i := range d.Comments.comments {
		c := &d.Comments.comments[i]
		if !c.ViewerDidAuthor {
			continue
		}
		nonce := placeholderNonce(c.Body)
		if claim != nil && (nonce == claim.Nonce || HasMarker(c.Body) && c.ID > claim.After) {
			d.posted = true
		}
		if nonce == "" || HasMarker(c.Body) {
			continue
		}
		if c.EditedByOther() {
			ignored = append(ignored, engine.IgnoredComment{ID: c.ID,
				Why: fmt.Sprintf("a placeholder of the state comment, edited by %s, not by this action", orUnknown(c.Editor))})
			continue
		}
		if claim != nil && nonce == claim.Nonce && d.adopt == nil {
			d.adopt = c
		}
		d.spare = c
	}
	return ignored
}

// fileWrite says what the save of c, read as v, writes into the subject's file besides
// the state: a claim to post the state comment when there is none to edit or adopt and
// no other claim in flight (fresh); the claim read otherwise, dropped once the comment
// is known. A save of intents claims nothing: the save after its effects does.
func (d *Dual) fileWrite(c Change, v Version) fileWrite {
	read := d.Branch.claim
	switch {
	case v.CommentID != 0:
		return fileWrite{claim: read, drop: true}
	case d.adopt == nil && read.inFlight(d.now()) && !d.posted:
		return fileWrite{claim: read, due: read.Until} // left to the claimer, until its end
	case c.Intent || d.adopt != nil:
		return fileWrite{claim: read}
	}
	return fileWrite{claim: newClaim(d.now(), d.deadline, d.newestComment()), fresh: true}
}

// newestComment is the greatest id among the comments read; 0 for none.
func (d *Dual) newestComment() int64 {
	var n int64
	for _, c := range d.Comments.comments {
		n = max(n, c.ID)
	}
	return n
}

// commentTarget is the state comment the save of v writes: v's own, the placeholder
// adopted, or a new one (the zero CommentID) when this invocation's claim won or the
// comment is the only store. ok is false when the comment is left to the invocation
// whose claim is in flight.
func (d *Dual) commentTarget(v Version, claimed bool) (target Version, ok bool) {
	adopt := d.adopt
	if adopt == nil && d.forbidden {
		adopt = d.spare // serialised by the concurrency group: a leftover of an earlier event
	}
	switch {
	case v.CommentID != 0:
		return v, true
	case adopt == nil && claimed && d.later && d.spare != nil:
		// A placeholder of the action's that no claim read names (the file that named it
		// is missing or not trusted): this invocation's claim won, and it is adopted rather
		// than a second one posted.
		adopt = d.spare
		fallthrough
	case adopt != nil:
		d.logf("comment %d is the placeholder of the state comment, posted under the claim on the state branch; it becomes the state comment when it is next edited", adopt.ID)
		v.CommentID, v.Body = adopt.ID, adopt.Body
		return v, true
	case claimed || d.forbidden:
		return v, true
	}
	return v, false
}

// release ends this invocation's claim, whose posting GitHub refused (err): its file is
// written again, the claim's Until now, so that the next event claims anew rather than
// wait for the claim to end. A request whose outcome is unknown (no answer) may still
// post the placeholder: the claim then holds until Until. Best effort: a failure is
// logged and the claim ends at Until.
func (d *Dual) release(ctx context.Context, c Change, live *engine.State, v Version, err error) {
	if !answered(err) || d.Branch.claim == nil {
		return
	}
	ended := *d.Branch.claim
	ended.Until = d.now().UTC()
	fw := fileWrite{claim: &ended, headline: subjectName(d.Branch.file) + ": the state comment was not posted"}
	if _, werr := d.Branch.write(ctx, c, live, nil, v, fw); werr != nil {
		d.logf("ending the claim to post the state comment: %v; the next event posts it after %s", werr, d.Branch.claim.Until.Format(time.RFC3339))
	}
}

// answered reports whether err is GitHub's answer to a request, not a request whose
// outcome is unknown: a transport error (the HTTP client's *url.Error: no answer, a
// timeout, a dropped connection) or an ended context.
func answered(err error) bool {
	var ue *url.Error
	return !errors.As(err, &ue) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// IsPlaceholder reports whether body is a placeholder of a state comment: posted, not yet
// bound to its state.
func IsPlaceholder(body string) bool { return placeholderNonce(body) != "" }
