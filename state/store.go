package state

import (
	"context"
	"errors"
	"fmt"

	"github.com/org/pipeline-action/engine"
)

// ErrConflict says the stored state changed since the caller read it: read again,
// evaluate again, save again.
var ErrConflict = errors.New("state changed since it was read")

// Version identifies what a Store read, so that Save can tell whether it changed.
// The zero Version means nothing was stored yet.
type Version struct {
	CommentID int64
	Body      string
}

// Store loads and saves the state of one subject with optimistic concurrency.
type Store interface {
	// Load returns the subject's state and the version read. With nothing stored
	// yet it returns an empty state (Version 1) and the zero Version. A stored state
	// that cannot be read is an error, never an empty state.
	Load(ctx context.Context, number int) (*engine.State, Version, error)
	// Save writes body (Render and the marker; see Body) if it differs from what v
	// read, and returns the new version. ErrConflict means v is stale.
	Save(ctx context.Context, number int, body string, v Version) (Version, error)
}

// Comment is a PR/issue comment as the facts query returns it.
type Comment struct {
	ID              int64
	Author          string
	ViewerDidAuthor bool // written by the action's own identity
	Body            string
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
}

// NewCommentStore returns a store over the subject's comments, as the facts query
// read them (oldest first); Load makes no API call. logf receives what the store
// ignores; nil discards it.
func NewCommentStore(w CommentWriter, comments []Comment, logf func(format string, args ...any)) *CommentStore {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &CommentStore{w: w, comments: comments, logf: logf}
}

// Load returns the state in the first comment that the action itself wrote and
// that carries a marker. Markers in anyone else's comments are ignored and logged:
// only the action's own identity may write state. A trusted marker that does not
// decode is an error; the caller must stop and leave the comment alone.
func (s *CommentStore) Load(_ context.Context, number int) (*engine.State, Version, error) {
	for _, c := range s.comments {
		if !HasMarker(c.Body) {
			continue
		}
		if !c.ViewerDidAuthor {
			s.logf("ignoring state marker in comment %d by %s: not written by this action", c.ID, c.Author)
			continue
		}
		st, _, err := Decode(c.Body)
		if err != nil {
			// Fail closed: starting over would forget runs and repeat their effects.
			return nil, Version{}, fmt.Errorf("reading state comment %d on #%d: %w", c.ID, number, err)
		}
		s.known = c.ID
		return st, Version{CommentID: c.ID, Body: c.Body}, nil
	}
	return &engine.State{Version: stateVersion}, Version{}, nil
}

// Save writes body to the state comment read as v: nothing when body equals
// v.Body, a new comment when v is zero, an edit otherwise.
func (s *CommentStore) Save(ctx context.Context, number int, body string, v Version) (Version, error) {
	if v.CommentID == 0 && s.known != 0 {
		return Version{}, fmt.Errorf("creating state comment on #%d: comment %d already holds the state: %w", number, s.known, ErrConflict)
	}
	if body == v.Body {
		return v, nil // nothing changed, nothing written
	}
	if v.CommentID == 0 {
		id, err := s.w.CreateComment(ctx, number, body)
		if err != nil {
			return Version{}, fmt.Errorf("creating state comment on #%d: %w", number, err)
		}
		s.known = id
		return Version{CommentID: id, Body: body}, nil
	}
	if err := s.w.UpdateComment(ctx, v.CommentID, body); err != nil {
		return Version{}, fmt.Errorf("updating state comment %d on #%d: %w", v.CommentID, number, err)
	}
	return Version{CommentID: v.CommentID, Body: body}, nil
}
