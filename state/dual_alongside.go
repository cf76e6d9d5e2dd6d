package state

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/org/pipeline-action/engine/model"
)

// alongside saves c by editing the state comment at the same time as the branch commit,
// rather than after it: one round trip less for the event. It does so only after a
// commit of this store has won (v's file is its own: the intents of the effects just
// performed), when the comment edited is the bound state comment read (v's), last written
// while the branch held the state (its marker names a commit), and the commit takes no
// claim to post a comment. ok is false when it did nothing: Save goes on.
//
// Why this is safe where the state is on the branch:
//   - The comment is a view and a spare copy, never the record an effect rests on: the
//     intents of write-ahead effects are committed (and won) before the effect, as
//     before; no effect waits for, or is moved ahead of, this save.
//   - The edit cannot win over the branch. Its marker names the commit the save is
//     written on (v.FileCommit), at a seq no greater than the one after that file's:
//     whatever lands on top of that commit, this save's or a rival's, is at least as new,
//     and a file still at that commit is taken over a comment naming it (Dual.Load), so
//     a loser's edit is never taken for the state.
//   - The file this save is written on holds the intents of the effects performed since:
//     a branch reset to it, or a commit that never lands, is the state an invocation
//     that stopped right after its effects leaves, which write-ahead already settles
//     from today's facts.
//   - A commit that loses (ErrConflict) costs what it cost before: the invocation reads
//     again and saves once more, and that save, which shows the winner's truth with its
//     own change, edits the comment again because what it shows differs (shows).
//
// A branch found refusing the action (ErrForbidden) leaves ok false: the comment is then
// the only store, and Save writes it again, with the note and no commit.
func (d *Dual) alongside(ctx context.Context, number int, c Change, live *model.State, archived []*model.Run, v Version, fw fileWrite) (out Version, ok bool, err error) {
	if c.Intent || fw.fresh || d.forbidden || d.wrote == "" || v.FileCommit != d.wrote || v.CommentID == 0 || v.Commit == "" || v.File == "" || IsPlaceholder(v.Body) {
		return v, false, nil
	}
	base, _, err := decodeFile(v.File, d.Branch.subject)
	if err != nil || base == nil {
		return v, false, nil
	}
	kept, _, err := externalize(live, d.Branch.file)
	if err != nil {
		return v, false, nil
	}
	body, err := Body(c.Config, kept)
	if err != nil || !c.Keep && d.shows(v, body, kept) {
		return v, false, nil // nothing to show: the commit alone, as Save does it
	}
	pinned := *kept
	pinned.Seq = min(base.Seq+1, kept.Seq)
	marked, err := Body(c.Config, &pinned)
	if err == nil {
		marked, err = WithCommit(marked, v.FileCommit)
	}
	if err != nil {
		return v, false, nil
	}
	var cv Version
	var cerr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		cv, cerr = d.Comments.write(ctx, number, marked, v, "")
	}()
	out, err = d.writeBranch(ctx, c, live, archived, v, fw)
	wg.Wait()
	if cerr != nil {
		cerr = fmt.Errorf("writing the state comment: %w", cerr)
	}
	switch {
	case err != nil && cerr != nil && errors.Is(err, ErrConflict):
		// A lost race is read again, not reported: the edit's failure is, here.
		d.logf("%v (beside a commit that lost the race: the next save edits it)", cerr)
		return v, true, errors.Join(err, cerr)
	case err != nil:
		return v, true, errors.Join(err, cerr)
	case d.forbidden:
		return out, false, nil
	case cerr != nil:
		return out, true, cerr
	}
	d.body = body
	out.CommentID, out.Body, out.Commit = cv.CommentID, cv.Body, cv.Commit
	return out, true, nil
}
