package state

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// ErrConflict says the stored state changed since the caller read it: read again,
// evaluate again, save again.
var ErrConflict = errors.New("state changed since it was read")

// ErrForbidden says the state branch may not be created or written: a ruleset or a
// branch protection refuses the action. The comment is then the only store.
var ErrForbidden = errors.New("the state branch may not be written")

// Version identifies what a Store read, so that Save can tell whether it changed.
// The zero Version means nothing was stored yet.
type Version struct {
	// The state comment read: its id (0 when there is none) and body, and the
	// state-branch commit its marker says the state matches ("" for none).
	CommentID int64
	Body      string
	Commit    string
	// The state branch read: its head commit ("" when the branch does not exist), the
	// text at that head of the subject's file, of IndexFile and of the subject's shard
	// of the index ("" when absent), and the commit that last changed the subject file.
	Head       string
	File       string
	Index      string
	Shard      string
	FileCommit string
	// Outputs are the subject's outputs files at Head: path → text.
	Outputs map[string]string
}

// Change is what Save stores: the state the engine returned (Save compacts it: see
// Compact), with what the commit message and the status need.
type Change struct {
	Config *lang.Config
	Old    *engine.State // the state as loaded, for the commit message
	State  *engine.State
	Event  Event
	// Intent says the state holds write-ahead intents that must be saved before their
	// effects are performed: what counts is the compare-and-swap on the branch, and the
	// comment is left for the save after them (unless it is the only store).
	Intent bool
	// Keep says to write the state even when only what is derived from the facts
	// changed: the comments cursor moved past pages read of their own.
	Keep bool
}

// Store loads and saves the state of one subject with optimistic concurrency.
type Store interface {
	// Load returns the subject's state and the version read. With nothing stored
	// yet it returns an empty state (Version 1) and the zero Version. A stored state
	// that cannot be read is an error, never an empty state.
	Load(ctx context.Context, number int) (*engine.State, Version, error)
	// Save writes c if it differs from what v read, and returns the new version.
	// ErrConflict means v is stale: load again, evaluate again, save again.
	Save(ctx context.Context, number int, c Change, v Version) (Version, error)
}

// CommentWriter is what the comment store needs from GitHub; the adapter satisfies it.
type CommentWriter interface {
	CreateComment(ctx context.Context, number int, body string) (int64, error)
	UpdateComment(ctx context.Context, id int64, body string) error
}

var _ Store = (*CommentStore)(nil)

// CommentStore keeps the state in the hidden marker of one comment on the subject.
//
// A comment cannot be compared-and-swapped: two invocations that read the same
// comment both win, the last write survives. The comment store therefore relies on
// the workflow's concurrency group to serialise invocations per subject. It returns
// ErrConflict only when Save is asked to create the state comment (zero Version)
// while a trusted state comment is already known — a caller bug, or a comment this
// invocation saw appear.
type CommentStore struct {
	w        CommentWriter
	comments []Comment
	logf     func(format string, args ...any)
	known    int64 // the trusted state comment, once loaded or created
	newly    []engine.IgnoredComment
	keys     *Keys // the state keys (SetKeys); nil: none
}

// maxIgnored bounds State.Ignored; the oldest entries go first.
const maxIgnored = 20

// NewCommentStore returns a store over the subject's comments, as the facts query
// read them (oldest first); Load makes no API call. logf receives what the store
// ignores; nil discards it.
func NewCommentStore(w CommentWriter, comments []Comment, logf func(format string, args ...any)) *CommentStore {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &CommentStore{w: w, comments: comments, logf: logf}
}

// Load returns the state in the oldest comment that passes Check. Markers in anyone
// else's comments are logged and ignored. Comments of the action's identity that fail
// Check, and trusted ones newer than the one used, are ignored too: they are added to
// State.Ignored (so the status lists them) and logged the first time they are seen.
// Nothing is ever written to an ignored comment; Save then writes a fresh one when no
// comment is trusted.
//
// A comment that passes every check but whose state does not decode is an error; the
// caller must stop and leave the comment alone. So is, without a state key, a comment
// that passes every check but is signed with a key (a *SignedStateError).
func (s *CommentStore) Load(_ context.Context, number int) (*engine.State, Version, error) {
	var chosen *Comment
	var st *engine.State
	var ignored []engine.IgnoredComment
	var signed []int64
	for i, c := range s.comments {
		if !HasMarker(c.Body) {
			continue
		}
		got, why, err := CheckKeyed(c, s.keys)
		if err != nil {
			// Fail closed: starting over would forget runs and repeat their effects.
			return nil, Version{}, fmt.Errorf("reading state comment %d on #%d: %w", c.ID, number, err)
		}
		switch {
		case !c.ViewerDidAuthor:
			// Anyone may comment: a marker there is not a state comment, and listing
			// it in the status would let anyone write into it.
			s.logf("ignoring state marker in comment %d by %s: not written by this action", c.ID, c.Author)
		case why == whyNoKey:
			signed = append(signed, c.ID)
		case why != "":
			ignored = append(ignored, engine.IgnoredComment{ID: c.ID, Why: why})
		case chosen != nil:
			ignored = append(ignored, engine.IgnoredComment{ID: c.ID,
				Why: fmt.Sprintf("it also holds a state; the oldest trusted state comment (id %d) is the one used", chosen.ID)})
		default:
			chosen, st = &s.comments[i], got
		}
	}
	if len(signed) > 0 {
		return nil, Version{}, &SignedStateError{Subject: fmt.Sprintf("#%d", number), Comments: signed}
	}
	v := Version{}
	if chosen == nil {
		st = &engine.State{Version: stateVersion}
	} else {
		s.known = chosen.ID
		v = Version{CommentID: chosen.ID, Body: chosen.Body, Commit: MarkerCommit(chosen.Body)}
	}
	s.newly = addIgnored(st, ignored)
	return st, v, nil
}

// addIgnored adds to st.Ignored the entries of ignored it does not hold yet, keeping
// the newest maxIgnored, and returns those it added.
func addIgnored(st *engine.State, ignored []engine.IgnoredComment) (added []engine.IgnoredComment) {
	for _, ig := range ignored {
		if hasIgnored(st.Ignored, ig) {
			continue
		}
		added = append(added, ig)
		st.Ignored = append(st.Ignored, ig)
	}
	if n := len(st.Ignored); n > maxIgnored {
		st.Ignored = st.Ignored[n-maxIgnored:]
	}
	return added
}

// NewlyIgnored returns the comments the last Load ignored for the first time, for the
// caller to report (they are in the loaded State.Ignored as well).
func (s *CommentStore) NewlyIgnored() []engine.IgnoredComment { return s.newly }

func hasIgnored(list []engine.IgnoredComment, x engine.IgnoredComment) bool {
	for _, ig := range list {
		if ig.ID == x.ID && ig.Commit == x.Commit && ig.File == x.File {
			return true
		}
	}
	return false
}

// Save writes the status of c (Body, of the state Compact leaves) to the state comment
// read as v, as Write does.
func (s *CommentStore) Save(ctx context.Context, number int, c Change, v Version) (Version, error) {
	live, _ := Compact(c.State)
	body, err := Body(c.Config, live)
	if err != nil {
		return Version{}, err
	}
	return s.Write(ctx, number, body, v)
}

// Write writes body (as Body returns it) to the state comment read as v, bound to that
// comment with Bind: nothing when the bound body equals v.Body, an edit otherwise.
//
// When v is zero it creates the state comment, which takes two calls: the comment's
// id is known only once it exists, so Save posts the status without a marker, then
// edits in the marker bound to the id. (The cost is one more API call, once per
// subject. The gain: a comment that was never edited cannot pass Check, so a comment
// merely posted by another workflow with the same token, marker and all, is never
// taken for the state.) The placeholder carries a hidden marker with a random nonce: if
// the edit fails, the comment holds no state, and the next event adopts the placeholder
// when the claim it was posted under names that nonce.
func (s *CommentStore) Write(ctx context.Context, number int, body string, v Version) (Version, error) {
	return s.write(ctx, number, body, v, "")
}

// write is Write, the placeholder carrying nonce (a fresh one when "").
func (s *CommentStore) write(ctx context.Context, number int, body string, v Version, nonce string) (Version, error) {
	if v.CommentID == 0 && s.known != 0 {
		return Version{}, fmt.Errorf("creating state comment on #%d: comment %d already holds the state: %w", number, s.known, ErrConflict)
	}
	if v.CommentID == 0 {
		created, err := s.post(ctx, number, body, nonce)
		if err != nil {
			return Version{}, err
		}
		v.CommentID, v.Body = created.CommentID, created.Body
	}
	bound, err := BindKeyed(body, v.CommentID, s.keys)
	if err != nil {
		return Version{}, fmt.Errorf("updating state comment %d on #%d: %w", v.CommentID, number, err)
	}
	if bound == v.Body {
		return v, nil // nothing changed, nothing written
	}
	if err := s.w.UpdateComment(ctx, v.CommentID, bound); err != nil {
		return Version{CommentID: v.CommentID}, fmt.Errorf("updating state comment %d on #%d: %w", v.CommentID, number, err)
	}
	v.Body, v.Commit = bound, MarkerCommit(bound)
	return v, nil
}

// post creates the state comment's placeholder: the status of body, and a hidden marker
// with nonce (a fresh one when "") in place of the state, which an edit binds to the
// comment's id (Write), or the next event adopts.
func (s *CommentStore) post(ctx context.Context, number int, body, nonce string) (Version, error) {
	if _, err := Bind(body, 1); err != nil { // refuse before writing anything
		return Version{}, fmt.Errorf("creating state comment on #%d: %w", number, err)
	}
	placeholder := Human(body)
	if strings.TrimSpace(placeholder) == "" {
		placeholder = "### pipeline-action"
	}
	if nonce == "" {
		nonce = newNonce()
	}
	placeholder += "\n\n" + placeholderMarker(nonce)
	id, err := s.w.CreateComment(ctx, number, placeholder)
	if err != nil {
		return Version{}, fmt.Errorf("creating state comment on #%d: %w", number, err)
	}
	s.known = id
	return Version{CommentID: id, Body: placeholder}, nil
}
