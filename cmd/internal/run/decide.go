package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

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
