package run

import (
	"context"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/state"
)

// save writes the state the rounds ended with, unless no pipeline concerns the subject,
// and returns what the subject ended as. pending is the error of rounds cut short.
func (r *Runner) save(ctx context.Context, client *ghapi.Client, ev routed, number int, a *attempt, rd *reading, res engine.Result, pending error) (*subjectResult, error) {
	if ev.follower != nil && engine.AddFollower(res.State, *ev.follower) {
		res.State.Seq++
	}
	saves := len(res.State.Runs) > 0 || len(rd.ignored) > 0 || len(res.State.Followers) > 0 || keepsEnabled(rd.loaded, res.State)
	if r.dry != nil { // what it would save and show, written nowhere
		a.saved(rd.loaded, res.State)
		return r.saveDry(rd, res, number, a.stateBranch, saves), pending
	}
	if !saves {
		return nil, nil // no pipeline concerns this PR: nothing to show, nothing written
	}
	c := rd.change(ev, res.State)
	c.Keep = recordComments(rd.snap, rd.loaded, res.State, rd.comments, rd.ver.CommentID)
	// A review the sweep found since the state was written is dated by writing it.
	if ev.reviewed {
		if res.State.Seq == rd.loaded.Seq {
			res.State.Seq++
		}
		c.Keep = true
	}
	ver, err := rd.store.Save(ctx, number, c, rd.ver)
	if err != nil {
		return nil, err
	}
	a.saved(rd.loaded, res.State)
	if ver.CommentID == 0 {
		ver.CommentID = rd.ver.CommentID
	}
	if err := r.writeStatuses(ctx, client, rd, res.State, ver.CommentID); err != nil {
		return nil, err
	}
	if pending != nil {
		return nil, pending
	}
	out := &subjectResult{Number: number, Summary: state.Human(rd.store.Body()), Charts: runCharts(rd.cfg, res.State)} // what the comment shows
	if last := latest(res.State.Runs); last != nil {
		out.Status, out.Stage = string(last.Status), last.Stage
	}
	return out, nil
}

// keepsEnabled reports whether the pipelines the subject enables or disables are to be
// written though no run is there: the state holds some, or the state as read held some.
func keepsEnabled(loaded, now *engine.State) bool {
	return len(now.Enabled) > 0 || loaded != nil && len(loaded.Enabled) > 0
}
