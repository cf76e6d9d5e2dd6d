package run

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
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
	loaded *engine.State // the state as read
	// st is the state the next commit changes: the state read, then the one each
	// write-ahead save wrote.
	st       *engine.State
	ver      state.Version
	comments ghapi.CommentsRead
	ignored  []engine.IgnoredComment
	warn     func(string, ...any)
}

// change is the change from the state the next commit changes to next.
func (rd *reading) change(ev routed, next *engine.State) state.Change {
	return state.Change{Config: rd.cfg, Old: rd.st, State: next, Event: state.Event{Name: ev.Event, Actor: ev.Actor}}
}

// attempt is one round of subject: read, let the engine decide and perform the effects it
// asks for, save. A state branch that moved since it was read is state.ErrConflict.
func (r *Runner) attempt(ctx context.Context, client *ghapi.Client, ev routed, number int, key string, a *attempt) (*subjectResult, error) {
	rd, err := r.read(ctx, client, ev, number, a)
	if rd == nil || err != nil {
		return nil, err
	}
	res, pending, err := r.decideAndAct(ctx, client, ev, number, key, a, rd)
	if err != nil {
		return nil, err
	}
	return r.save(ctx, ev, number, a, rd, res, pending)
}

// read reads one subject: its snapshot and config, its state, and the facts the config
// needs beyond the snapshot. A nil reading with no error is a subject with nothing to do.
func (r *Runner) read(ctx context.Context, client *ghapi.Client, ev routed, number int, a *attempt) (*reading, error) {
	rd := &reading{path: r.configPath()}
	if err := r.readConfig(ctx, client, ev, number, a, rd); err != nil || rd.cfg == nil {
		return nil, err
	}
	snap, cfg := rd.snap, rd.cfg
	if snap.Facts.PR == nil && snap.Facts.Issue == nil {
		r.act.Infof("pipeline-action: #%d is neither a pull request nor an issue of %s; nothing to do", number, snap.Facts.Repo)
		return nil, nil
	}
	info := func(f string, args ...any) { r.act.Infof("pipeline-action: "+f, args...) }
	rd.warn = func(f string, args ...any) {
		r.act.Warningf("pipeline-action: #%d: "+f, append([]any{number}, args...)...)
	}
	subject := snap.Facts.Repo + "#" + strconv.Itoa(number)
	var err error
	rd.store, rd.st, rd.ver, rd.comments, err = r.loadState(ctx, client, cfg, snap, number, subject, info, rd.warn) // comments.go
	if err != nil {
		return nil, err
	}
	rd.loaded = rd.st
	if err := r.issuePRsWith(ctx, client, cfg, snap.Facts, rd.st, ev.Report); err != nil { // run_multipr.go
		return nil, err
	}
	rd.ignored = rd.store.NewlyIgnored()
	r.warnIgnored(number, a, rd.ignored)
	if cfg.Pinned, err = r.pinned(ctx, client, rd.path, snap.DefaultBranch, cfg, rd.st); err != nil {
		return nil, err
	}
	if err := extraFactsWarn(ctx, client, cfg, snap.Facts, r.Getenv("GITHUB_WORKSPACE"), rd.warn); err != nil { // facts_extra.go
		return nil, err
	}
	if err := issueExtraFacts(ctx, client, cfg, snap.Facts, r.Getenv("GITHUB_WORKSPACE")); err != nil { // run_issue.go
		return nil, err
	}
	return rd, nil
}

// readConfig reads the snapshot and loads its config into rd, reading again once when
// the config names another state branch than the one read with it. rd.cfg stays nil
// when there is no config.
func (r *Runner) readConfig(ctx context.Context, client *ghapi.Client, ev routed, number int, a *attempt, rd *reading) error {
	for read := 1; ; read++ {
		snap, err := r.snapshot(ctx, client, ev, number, rd.path, a) // run_issue.go
		if err != nil {
			return err
		}
		rd.snap = snap
		if snap.Config == nil {
			r.act.Infof("pipeline-action: no %s on %s; nothing to do", ConfigWhere(rd.path), snap.DefaultBranch)
			return nil
		}
		cfg, err := LoadConfig(snap.Config)
		if err != nil {
			var list lang.ErrorList
			if !errors.As(err, &list) {
				return fmt.Errorf("%w on %s", err, snap.DefaultBranch)
			}
			r.annotate(err)
			return fmt.Errorf("the config on %s is invalid; nothing was changed", snap.DefaultBranch)
		}
		b := cfg.Settings.StateBranch
		if b == "" || b == a.stateBranch {
			rd.cfg = cfg
			return nil
		}
		if read == 2 {
			return fmt.Errorf("the config on %s changed its state_branch while it was read; nothing was changed", snap.DefaultBranch)
		}
		// The config names another state branch than the one read with it: read again
		// (one query more on every event, for a config that names its own branch).
		a.stateBranch = b
	}
}

// warnIgnored warns, once, of the stored states that were ignored: the state written
// after remembers them.
func (r *Runner) warnIgnored(number int, a *attempt, ignored []engine.IgnoredComment) {
	for _, ig := range ignored {
		switch {
		case ig.File != "":
			r.act.Warningf("#%d: %s", number, ig.Why)
		case ig.Commit != "":
			r.act.Warningf("#%d: the state file on %s was ignored: %s; the runs go on from the state comment, or from what can be verified, and the file is written anew", number, a.stateBranch, ig.Why)
		default:
			r.act.Warningf("#%d: the state in comment %d was ignored: %s; the runs go on from what can be verified, and that comment is left as it is", number, ig.ID, ig.Why)
		}
	}
}

// save writes the state the rounds ended with, unless no pipeline concerns the subject,
// and returns what the subject ended as. pending is the error of rounds cut short.
func (r *Runner) save(ctx context.Context, ev routed, number int, a *attempt, rd *reading, res engine.Result, pending error) (*subjectResult, error) {
	if ev.follower != nil && engine.AddFollower(res.State, *ev.follower) { // run_issue.go
		res.State.Seq++
	}
	if len(res.State.Runs) == 0 && len(rd.ignored) == 0 && len(res.State.Followers) == 0 {
		return nil, nil // no pipeline concerns this PR: nothing to show, nothing written
	}
	c := rd.change(ev, res.State)
	c.Keep = recordComments(rd.snap, rd.loaded, res.State, rd.comments, rd.ver.CommentID) // comments.go
	if _, err := rd.store.Save(ctx, number, c, rd.ver); err != nil {
		return nil, err
	}
	a.saved(rd.loaded, res.State) // run_issue.go
	if pending != nil {
		return nil, pending
	}
	out := &subjectResult{Number: number, Summary: state.Human(rd.store.Body())} // what the comment shows
	if last := latest(res.State.Runs); last != nil {
		out.Status, out.Stage = string(last.Status), last.Stage
	}
	return out, nil
}

// saveIntents saves the state res returned before any of its effects is performed, when
// one of them is write-ahead (a merge, a comment: the state holds its intent). Only an
// invocation whose save won may perform them; a failed save, a conflict included, is an
// error, and nothing is performed.
func saveIntents(ctx context.Context, store state.Store, c state.Change, number int, res engine.Result, ver state.Version) (state.Version, error) {
	if !engine.HasWriteAhead(res.Effects) {
		return ver, nil
	}
	v, err := store.Save(ctx, number, c, ver)
	if err != nil {
		var keys []string
		for _, e := range res.Effects {
			if e.WriteAhead {
				keys = append(keys, e.Key)
			}
		}
		return ver, fmt.Errorf("saving the intent of %s before performing it: %w; nothing was performed", strings.Join(keys, ", "), err)
	}
	return v, nil
}
