package run

import (
	"context"
	"fmt"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// loadState makes the stores of a subject over what snap read and loads its state. When
// the state needs comments the facts query did not read — those between its oldest and
// its newest page that are newer than what the state has read, or its state comment —
// they are read, and the state loaded again over them: Load makes no
// API call, and what the first load logged is dropped.
func (r *Runner) loadState(ctx context.Context, client *ghapi.Client, cfg *lang.Config, snap *ghapi.Snapshot, number int,
	subject string, info, warn func(string, ...any)) (store *state.Dual, st *engine.State, ver state.Version, read ghapi.CommentsRead, err error) {
	var held []func()
	hold := func(f func(string, ...any)) func(string, ...any) {
		return func(format string, args ...any) { held = append(held, func() { f(format, args...) }) }
	}
	load := func(info, warn func(string, ...any)) error {
		branch := state.NewBranchStore(client, snap.State, state.SubjectFile(snap.Facts.Issue == nil, number), subject, snap.Viewer, warn)
		store = state.NewDual(branch, state.NewCommentStore(client, snap.Comments, info), warn)
		store.SetKeys(r.stateKeys)
		store.SetClock(r.Now, r.limits.Deadline)
		store.BindLater() // the next event binds a new state comment
		st, ver, err = store.Load(ctx, number)
		return err
	}
	if snap.Facts.PR == nil { // an issue's comments are read as they were
		err = load(info, warn)
		return store, st, ver, read, err
	}
	if err = load(hold(info), hold(warn)); err != nil {
		return nil, nil, state.Version{}, read, err
	}
	if read, err = client.ReadComments(ctx, snap, number, CommentsNeed(cfg, st, ver)); err != nil {
		return nil, nil, state.Version{}, read, err
	}
	if !read.Any() {
		for _, f := range held {
			f()
		}
		return store, st, ver, read, nil
	}
	if read.Pages > 0 {
		info("#%d: %s", number, commentsRead(read.Pages))
	}
	err = load(info, warn)
	return store, st, ver, read, err
}

// CommentsNeed is how far back the comments must be read for st, loaded as ver: back to
// what it has read, to the entry of its oldest waiting `wait_for: comment` stage of a
// count above one (which counts every comment since), and to the oldest comment a stored
// command of an open run was given in; and its state comment, wherever it is, so that the
// oldest trusted state comment is still the one used. A state whose comment was not found,
// and that does not name it, is read in full: its comment is somewhere among them.
func CommentsNeed(cfg *lang.Config, st *engine.State, ver state.Version) ghapi.CommentsNeed {
	need := ghapi.CommentsNeed{Since: st.CommentsRead, From: waitingForComments(cfg, st), StateComment: st.StateComment}
	if ver.CommentID == 0 && st.StateComment == "" && (st.Seq > 0 || len(st.Runs) > 0) {
		need.Since = 0
	}
	if oldest := oldestCommand(st); oldest > 0 && need.Since > 0 && oldest < need.Since {
		need.Since = oldest
	}
	return need
}

// oldestCommand is the id of the oldest comment a stored `/pipeline approve` or skip of an
// open run was given in; 0 for none. Such a command counts only while its comment, read
// now, is still its author's command (engine: CommandGone), so that comment must be read:
// one not read would count as deleted.
func oldestCommand(st *engine.State) int64 {
	var oldest int64
	note := func(a *engine.Approval) {
		if a != nil && a.Comment > 0 && (oldest == 0 || a.Comment < oldest) {
			oldest = a.Comment
		}
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		for _, sr := range run.Stages {
			if sr == nil {
				continue
			}
			for i := range sr.Approvals {
				note(&sr.Approvals[i])
			}
			note(sr.Skipped)
		}
	}
	return oldest
}

// waitingForComments is when the oldest human stage waiting for more than one comment
// was entered; zero when none waits. A stage that waits for one comment needs none older
// than what the state has read: each of those was read by an event while the stage
// waited, and one that counted would have moved it on then. A stage the config no longer
// describes counts as waiting for several.
func waitingForComments(cfg *lang.Config, st *engine.State) time.Time {
	var from time.Time
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		for id, sr := range run.Stages {
			if sr == nil || sr.Status != engine.StageWaiting {
				continue
			}
			if p := cfg.PipelineFor(run); p != nil {
				if s := p.Stage(id); s != nil && (s.Type != lang.StageHuman || s.WaitFor != lang.WaitComment || s.Count <= 1) {
					continue
				}
			}
			if from.IsZero() || sr.EnteredAt.Before(from) {
				from = sr.EnteredAt
			}
		}
	}
	return from
}

// recordComments notes in next, the state about to be saved, the newest comment this
// event read and the node id of the state comment (commentID), so that the next event
// reads from there: when next is saved anyway (it changed since loaded), or when reading
// the comments took pages of their own (so that they are read once, not on every event).
// keep says the cursor moved past pages read: worth a commit of its own (state.Change.Keep).
func recordComments(snap *ghapi.Snapshot, loaded, next *engine.State, read ghapi.CommentsRead, commentID int64) (keep bool) {
	if snap.Facts.PR == nil {
		return false
	}
	newest, node := snap.NewestComment(), snap.NodeID(commentID)
	if node == "" {
		node = next.StateComment
	}
	if newest <= next.CommentsRead && node == next.StateComment {
		return false
	}
	if next.Seq == loaded.Seq && read.Pages == 0 {
		return false // nothing else to save: read again next time, at no extra cost
	}
	if next.Seq == loaded.Seq {
		next.Seq++
	}
	next.CommentsRead, next.StateComment = max(newest, next.CommentsRead), node
	return read.Pages > 0
}

// commentsRead describes what reading the comments took, for the job log.
func commentsRead(pages int) string {
	return fmt.Sprintf("read %d more %s of comments, back to what the state had read", pages, Plural(pages, "page", "pages"))
}
