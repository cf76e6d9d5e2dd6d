package state

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"
)

// Dual keeps a subject's state on the state branch, the source of truth, and its
// status in the state comment, the view and the spare copy: the comment's marker holds
// the state too, and the branch commit it matches.
//
// Load goes on from the branch's file when it is trusted and not older than the
// comment's state; else from the comment when that is trusted (the branch was lost,
// reset, written by someone else, or never written: rebuilt from the comment); else
// from nothing (what the facts show). Save writes the branch first — a conflict stops
// there, before the comment is touched — then the comment; after a commit of its own has
// won, both at once (see alongside), the comment unable to win over the branch. A file
// still at the commit a newer comment names is taken over it. The state comment is
// posted once, through a claim written on the branch. When the branch
// refuses the action (ErrForbidden), the comment is the only store: the status says so.
type Dual struct {
	Branch   *BranchStore
	Comments *CommentStore
	logf     func(format string, args ...any)
	now      func() time.Time
	deadline time.Time // the invocation's; zero when unknown

	forbidden   bool
	wrote       string // the commit this store last wrote on the branch; "" for none
	commentOnly bool   // the state loaded is the comment's, matching no commit of the branch
	newly       []model.IgnoredComment
	body        string // the status last rendered by Save
	// With no trusted state comment: adopt is the placeholder of the file's claim, spare
	// the newest placeholder of the action's; nil for none.
	adopt, spare *Comment
	// posted says the claim read was acted on: a comment of the action's carries its
	// nonce, or a state marker newer than the claim.
	posted bool
	// later says a new state comment's binding may wait for the next event.
	later bool
}

var _ Store = (*Dual)(nil)

// NewDual returns a store over both; logf receives what happened to them (a rebuilt
// file, a branch the action may not write).
func NewDual(branch *BranchStore, comments *CommentStore, logf func(format string, args ...any)) *Dual {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Dual{Branch: branch, Comments: comments, logf: logf, now: time.Now}
}

// SetClock gives the store the invocation's clock and deadline (zero: unknown), which
// bound how long its claim to post the state comment holds.
func (d *Dual) SetClock(now func() time.Time, deadline time.Time) {
	if now != nil {
		d.now = now
	}
	d.deadline = deadline
}

// Load returns the state to go on from; see Dual.
func (d *Dual) Load(ctx context.Context, number int) (*model.State, Version, error) {
	cst, cv, err := d.Comments.Load(ctx, number)
	var signed *SignedStateError
	if err != nil && !errors.As(err, &signed) {
		return nil, Version{}, fmt.Errorf("%w; the state comment was left as it is", err)
	}
	bst, err := d.Branch.state()
	var signedFile *SignedStateError
	if err != nil && !errors.As(err, &signedFile) {
		return nil, Version{}, err
	}
	if signed = signed.merge(signedFile); signed != nil {
		signed.Subject = d.Branch.subject
		return nil, Version{}, signed
	}
	v := d.Branch.version()
	v.CommentID, v.Body, v.Commit = cv.CommentID, cv.Body, cv.Commit
	noFile := d.Branch.read.File == nil
	d.commentOnly = noFile && cv.CommentID != 0 && cv.Commit == ""
	file := d.Branch.file
	st := bst
	switch {
	case bst != nil && cv.CommentID != 0 && d.sameFile(cv, bst, cst):
		st = cst // the file's decisions, with what the comment shows derived from the facts
	case bst != nil && (cv.CommentID == 0 || bst.Seq >= cst.Seq):
	case bst != nil && cv.Commit == d.Branch.read.File.Commit:
		// A comment naming the file's commit at a newer seq was edited alongside a
		// commit on top of it that did not land (see alongside): the file is the state.
	case cv.CommentID != 0 && bst != nil:
		st = cst
		d.logf("%s on %s holds an older state (seq %d) than the state comment (seq %d): the branch was reset or not written; going on from the comment", file, d.Branch.read.Name, bst.Seq, cst.Seq)
	case cv.CommentID != 0 && noFile && cv.Commit != "":
		st = cst
		d.logf("%s is not on %s any more (the branch was deleted or reset); rebuilt from the state comment, which matched commit %.7s", file, d.Branch.read.Name, cv.Commit)
	case cv.CommentID != 0:
		st = cst
	default:
		st = &model.State{Version: stateVersion}
	}
	d.newly = append(append([]model.IgnoredComment(nil), d.Comments.NewlyIgnored()...), d.Branch.newly...)
	d.adopt, d.spare = nil, nil
	if cv.CommentID == 0 {
		d.newly = append(d.newly, d.findPlaceholders()...)
	}
	d.newly = append(d.newly, resolve(st, d.Branch.read.Outputs)...)
	d.newly = addIgnored(st, d.newly)
	return st, v, nil
}

// NewlyIgnored returns the comments and files the last Load ignored for the first time,
// for the caller to report (they are in the loaded State.Ignored as well).
func (d *Dual) NewlyIgnored() []model.IgnoredComment { return d.newly }

// Body returns the state comment the last Save rendered (whether it wrote it or not):
// what the status shows.
func (d *Dual) Body() string { return d.body }

// Forbidden reports whether the last Save found the branch refusing the action.
func (d *Dual) Forbidden() bool { return d.forbidden }

// Budget says whether st, saved by d, keeps to the state's budget (see Budget). Its
// outputs count in the comment when the branch refused the action, or when the state
// loaded was kept by the comment alone (the branch refused it then): a branch that has
// just become writable is assumed not to be.
func (d *Dual) Budget(st *model.State) error {
	return Budget(st, d.Branch.file, d.forbidden || d.commentOnly)
}

// Save writes the branch, then the comment; see Dual. A conflict on the branch is
// ErrConflict, and nothing was written.
func (d *Dual) Save(ctx context.Context, number int, c Change, v Version) (Version, error) {
	live, archived := Compact(c.State)
	fw := d.fileWrite(c, v)
	out, err := v, error(nil)
	if seq, ok := d.unchanged(c, live, archived, v, fw); ok {
		only := *live
		only.Seq = seq // the comment holds the file's decisions, at the file's seq
		live = &only
	} else {
		var done bool
		if out, done, err = d.alongside(ctx, number, c, live, archived, v, fw); done {
			return out, err
		}
		if !d.forbidden { // a branch refusing the action is not written: out is v
			if out, err = d.writeBranch(ctx, c, live, archived, v, fw); err != nil {
				return v, err
			}
		}
	}
	claimed := fw.fresh && !d.forbidden // the commit holding this invocation's claim won
	var notes []string
	kept := live // where the branch may not be written, the outputs stay in the comment
	if d.forbidden {
		notes = append(notes, forbiddenNote(d.Branch.read.Name))
	} else if kept, _, err = externalize(live, d.Branch.file); err != nil {
		return out, err
	}
	body, err := Body(c.Config, kept, notes...)
	if err != nil {
		return out, err
	}
	d.body = body
	if c.Intent && !d.forbidden {
		return out, nil // the save after the effects writes the comment
	}
	target, ok := d.commentTarget(v, claimed)
	if !ok || !c.Keep && d.shows(target, body, kept) {
		return out, nil
	}
	commit := out.FileCommit
	if d.forbidden {
		commit = ""
	}
	if body, err = WithCommit(body, commit); err != nil {
		return out, err
	}
	nonce := ""
	if claimed {
		nonce = fw.claim.Nonce
	}
	write := d.Comments.write
	if d.later && claimed && target.CommentID == 0 && nothingDone(kept) {
		write = d.Comments.postOnly
	}
	cv, err := write(ctx, number, body, target, nonce)
	if err != nil {
		if claimed && target.CommentID == 0 && cv.CommentID == 0 {
			d.release(ctx, c, live, out, err)
		}
		return out, fmt.Errorf("writing the state comment: %w", err)
	}
	out.CommentID, out.Body, out.Commit = cv.CommentID, cv.Body, cv.Commit
	return out, nil
}

// writeBranch writes the branch as fw says, unless it refuses the action: then it is
// noted (Forbidden) and the comment is the only store.
func (d *Dual) writeBranch(ctx context.Context, c Change, live *model.State, archived []*model.Run, v Version, fw fileWrite) (Version, error) {
	if d.forbidden {
		return v, nil
	}
	nv, err := d.Branch.write(ctx, c, live, archived, v, fw)
	switch {
	case err == nil:
		if nv.FileCommit != v.FileCommit {
			d.wrote = nv.FileCommit
		}
		return nv, nil
	case errors.Is(err, ErrForbidden):
		d.forbidden = true
		d.logf("the state branch %s may not be written (%s): the state comment is the only store, and serialising events rests on the workflow's concurrency group",
			d.Branch.read.Name, strings.Join(strings.Fields(err.Error()), " "))
		return v, nil
	}
	return v, err
}

// forbiddenNote is the status's word on a state branch the action may not write.
func forbiddenNote(branch string) string {
	return fmt.Sprintf("\n⚠️ **State branch refused.** The state branch %s may not be created or written by this action (a ruleset or branch protection refuses it), so this comment is the only place its state is kept, and events for this pull request must not run at the same time (the workflow's concurrency group serialises them).\n", code(branch))
}
