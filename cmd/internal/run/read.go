package run

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

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
	rd.store, rd.st, rd.ver, rd.comments, err = r.loadState(ctx, client, cfg, snap, number, subject, info, rd.warn)
	if err != nil {
		return nil, err
	}
	rd.loaded = rd.st
	// since when each pipeline is defined as it is
	noteDefinitions(snap, cfg, r.stateKeys, snap.Facts, rd.store.Branch)
	if err := r.issuePRsWith(ctx, client, cfg, snap.Facts, rd.st, ev.Report); err != nil {
		return nil, err
	}
	rd.ignored = rd.store.NewlyIgnored()
	r.warnIgnored(number, a, rd.ignored)
	if cfg.Pinned, err = r.pinned(ctx, client, rd.path, snap.DefaultBranch, cfg, rd.st); err != nil {
		return nil, err
	}
	if err := extraFactsWarn(ctx, client, cfg, snap.Facts, r.Getenv("GITHUB_WORKSPACE"), rd.warn); err != nil {
		return nil, err
	}
	r.httpFacts(ctx, cfg, snap.Facts)
	if err := issueExtraFacts(ctx, client, cfg, snap.Facts, r.Getenv("GITHUB_WORKSPACE")); err != nil {
		return nil, err
	}
	return rd, nil
}

// readConfig reads the snapshot and loads its config into rd, reading again once when
// the config names another state branch than the one read with it. rd.cfg stays nil
// when there is no config.
func (r *Runner) readConfig(ctx context.Context, client *ghapi.Client, ev routed, number int, a *attempt, rd *reading) error {
	for read := 1; ; read++ {
		snap, err := r.snapshot(ctx, client, ev, number, rd.path, a)
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
