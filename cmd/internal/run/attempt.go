package run

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine"
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
func (r *Runner) warnIgnored(number int, a *attempt, ignored []model.IgnoredComment) {
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

// decideAndAct lets the engine evaluate the event for the subject rd read, then performs
// the effects it asks for and settles their outcomes, round after round, until it asks
// for none. Write-ahead effects are saved as intents first (rd.ver and rd.st follow each
// save). pending is set when the rounds were cut short at maxSettleRounds.
func (r *Runner) decideAndAct(ctx context.Context, client *ghapi.Client, ev routed, number int, key string, a *attempt, rd *reading) (res model.Result, pending error, err error) {
	// The outcomes of effects an earlier round performed but could not record (its save
	// conflicted): Step records them against their intents first.
	in := model.Input{Key: key, Event: ev.Event, Actor: ev.Actor, Number: number, Deadline: r.limits.Deadline, Outcomes: a.outcomes,
		Report: ev.Report, AgentFailure: ev.AgentFailure, Nonces: r.nonces(),
		CommentID: ev.CommentID, Pipeline: ev.Pipeline, Label: ev.Label}
	now := r.Now()
	snap, cfg := rd.snap, rd.cfg
	res, err = StepWithPeople(ctx, client, cfg, rd.st, in, snap.Facts, now, rd.warn)
	if err != nil {
		return res, nil, err
	}
	r.logLines(res.Log)
	if err := reportBudget(ev.Report, rd.store, res.State); err != nil {
		return res, nil, err
	}
	done := &doneGuard{number: number}
	for round := 0; len(res.Effects) > 0; round++ {
		if round == maxSettleRounds {
			return res, fmt.Errorf("effects still pending after %d rounds; the state was saved as it stands, and the next event carries on", maxSettleRounds), nil
		}
		saved := res.State
		intent := rd.change(ev, res.State)
		intent.Intent = true
		if r.dry == nil { // a dry invocation saves no intent
			if rd.ver, err = saveIntents(ctx, rd.store, intent, number, res, rd.ver); err != nil {
				return res, nil, err
			}
		}
		outcomes := r.performAll(ctx, client, snap.Facts, res.State, res.Effects, done)
		a.outcomes = append(a.outcomes, outcomes...)
		if model.HasWriteAhead(res.Effects) {
			rd.st = saved // the state last saved: what the next commit changes
		}
		in.Visits = res.Visits // a loop is bounded within the whole event, across rounds
		in.DoneBy = res.DoneBy // a subject done in this event is done for the rounds after
		settled := res.State
		res = engine.Settle(cfg, settled, in, outcomes, snap.Facts, now)
		if read, err := readFilesIfNeeded(ctx, client, res, snap.Facts); err != nil {
			return res, nil, err
		} else if read {
			res = engine.Settle(cfg, settled, in, outcomes, snap.Facts, now)
		}
		r.logLines(res.Log)
	}
	return res, nil, nil
}

// performAll performs effects in order and returns their outcomes; what one did is
// recorded in the facts, so later stages of the same invocation see it.
func (r *Runner) performAll(ctx context.Context, client *ghapi.Client, facts *model.Facts, st *model.State, effects []model.Effect, done *doneGuard) []model.Outcome {
	if r.dry != nil {
		return r.performDry(facts, effects)
	}
	outcomes := make([]model.Outcome, 0, len(effects))
	for _, e := range effects {
		if o, held := done.hold(st, e); held {
			r.act.Warningf("%s: %s", e.Key, o.Err)
			outcomes = append(outcomes, o)
			continue
		}
		o := r.perform(ctx, client, e)
		done.note(st, e, o)
		if o.Err == "" {
			r.act.Infof("pipeline-action: %s done", e.Key)
			if o.Queued && facts.PR != nil && e.Repo == "" && e.Number == facts.PR.Number {
				facts.PR.InMergeQueue = true // the merge queue took it: not merged yet
			} else if !o.Queued {
				applyToFacts(facts, e)
			}
		} else {
			r.act.Warningf("%s: %s", e.Key, o.Err)
		}
		outcomes = append(outcomes, o)
	}
	return outcomes
}

// applyToFacts records what a performed effect changed, so later stages of the same
// invocation see it.
func applyToFacts(f *model.Facts, e model.Effect) {
	if f.PR == nil || e.Repo != "" || (e.Number != 0 && e.Number != f.PR.Number) {
		applyToIssueFacts(f, e) // an issue, or a pull request that is not the subject
		return
	}
	applyToPR(f.PR, e)
}

// applyToPR records on pr what effect e, an effect on it, changed.
func applyToPR(pr *model.PullRequest, e model.Effect) {
	if e.Kind == model.EffectLabel { // add, then remove
		applyToPR(pr, model.Effect{Kind: model.EffectAddLabel, Labels: e.Labels})
		applyToPR(pr, model.Effect{Kind: model.EffectRemoveLabel, Labels: e.Remove})
		return
	}
	switch e.Kind {
	case model.EffectMerge:
		pr.State = model.PRMerged
	case model.EffectDequeue:
		pr.InMergeQueue, pr.QueuePosition = false, 0
	case model.EffectAddLabel, model.EffectDispatch: // a label dispatch adds its label
		for _, l := range e.Labels {
			if !pr.HasLabel(l) {
				pr.Labels = append(pr.Labels, l)
			}
		}
	case model.EffectRemoveLabel:
		kept := pr.Labels[:0]
		for _, l := range pr.Labels {
			gone := false
			for _, r := range e.Labels {
				gone = gone || lang.SameLabel(l, r)
			}
			if !gone {
				kept = append(kept, l)
			}
		}
		pr.Labels = kept
	}
}

// saveIntents saves the state res returned before any of its effects is performed, when
// one of them is write-ahead (a merge, a comment: the state holds its intent). Only an
// invocation whose save won may perform them; a failed save, a conflict included, is an
// error, and nothing is performed.
func saveIntents(ctx context.Context, store state.Store, c state.Change, number int, res model.Result, ver state.Version) (state.Version, error) {
	if !model.HasWriteAhead(res.Effects) {
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

// save writes the state the rounds ended with, unless no pipeline concerns the subject,
// and returns what the subject ended as. pending is the error of rounds cut short.
func (r *Runner) save(ctx context.Context, client *ghapi.Client, ev routed, number int, a *attempt, rd *reading, res model.Result, pending error) (*subjectResult, error) {
	if ev.follower != nil && model.AddFollower(res.State, *ev.follower) {
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
func keepsEnabled(loaded, now *model.State) bool {
	return len(now.Enabled) > 0 || loaded != nil && len(loaded.Enabled) > 0
}

// StepWithPeople is engine.Step with the people it needs read first (engine.PeopleNeeded: team
// members and permissions for human stages and /pipeline commands). A run that Step
// starts or moves to a human stage may need more than the state before it named: those
// are read too, and Step is evaluated again on them (it is pure). Nothing is read for a
// subject whose runs need no one. What GitHub shows of the dispatches whose outcome the
// state does not hold yet is read first too.
func StepWithPeople(ctx context.Context, client *ghapi.Client, cfg *lang.Config, st *model.State, in model.Input, f *model.Facts, now time.Time, warn func(string, ...any)) (model.Result, error) {
	read := func(needs model.Needs) error {
		needs = unread(f, needs)
		if needs.Empty() {
			return nil
		}
		teams, people, err := client.People(ctx, needs, warn)
		if err != nil {
			return err
		}
		if f.TeamMembers == nil {
			f.TeamMembers = map[string][]string{}
		}
		if f.People.Permissions == nil {
			f.People.Permissions = map[string]string{}
		}
		for k, v := range teams {
			f.TeamMembers[k] = v
		}
		for k, v := range people.Permissions {
			f.People.Permissions[k] = v
		}
		return nil
	}
	lookUpDispatches(ctx, client, st, f, warn)
	needs := engine.PeopleNeeded(cfg, st, f)
	react := engine.ReactionNeeds(cfg, st, in)
	needs.Permissions, needs.Teams = append(needs.Permissions, react.Permissions...), append(needs.Teams, react.Teams...)
	if err := read(needs); err != nil {
		return model.Result{}, err
	}
	res := engine.Step(cfg, st, in, f, now)
	if read, err := readFilesIfNeeded(ctx, client, res, f); err != nil {
		return model.Result{}, err
	} else if read {
		res = engine.Step(cfg, st, in, f, now)
	}
	if more := unread(f, engine.PeopleNeeded(cfg, res.State, f)); !more.Empty() {
		if err := read(more); err != nil {
			return model.Result{}, err
		}
		res = engine.Step(cfg, st, in, f, now)
	}
	return res, nil
}

// unread is what of needs the facts do not hold yet.
func unread(f *model.Facts, needs model.Needs) model.Needs {
	var out model.Needs
	seen := map[string]bool{} // a team or login two needs name is read once
	for _, t := range needs.Teams {
		if _, ok := f.TeamMembers[strings.ToLower(t)]; !ok && !seen["team "+strings.ToLower(t)] {
			seen["team "+strings.ToLower(t)] = true
			out.Teams = append(out.Teams, t)
		}
	}
	for _, l := range needs.Permissions {
		if _, ok := f.People.Permissions[strings.ToLower(l)]; !ok && !seen[strings.ToLower(l)] {
			seen[strings.ToLower(l)] = true
			out.Permissions = append(out.Permissions, l)
		}
	}
	return out
}
