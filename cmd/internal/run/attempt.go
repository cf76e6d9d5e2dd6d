package run

import (
	"context"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// reading is what one round of a subject read: the snapshot (facts, config, comments and
// the state branch in one query), the config, and the state with its stores.
type reading struct {
	path   string
	snap   *ghapi.Snapshot
	cfg    *lang.Config
	store  *state.Dual
	loaded *model.State // the state as read
	// st is the state the next commit changes: the state read, then the one each
	// write-ahead save wrote.
	st       *model.State
	ver      state.Version
	comments ghapi.CommentsRead
	ignored  []model.IgnoredComment
	warn     func(string, ...any)
}

// change is the change from the state the next commit changes to next.
func (rd *reading) change(ev routed, next *model.State) state.Change {
	return state.Change{Config: rd.cfg, Old: rd.st, State: next, Event: state.Event{Name: ev.Event, Actor: ev.Actor}}
}

// attempt is one round of subject: read, let the engine decide and perform the effects it
// asks for, save. A state branch that moved since it was read is state.ErrConflict.
func (r *Runner) attempt(ctx context.Context, client *ghapi.Client, ev routed, number int, key string, a *attempt) (*subjectResult, error) {
	rd, err := r.read(ctx, client, ev, number, a)
	if rd == nil || err != nil {
		return nil, err
	}
	if r.dry != nil {
		r.dry.begin(number, rd.snap.Facts.PR == nil)
	}
	res, pending, err := r.decideAndAct(ctx, client, ev, number, key, a, rd)
	if err != nil {
		return nil, err
	}
	return r.save(ctx, client, ev, number, a, rd, res, pending)
}
