// Package core is what every part of the evaluator shares: the state and its runs, the
// facts, effects and their intents, deadlines, and Eval, one evaluation of an input, with
// the operations the stage types and the step loop of package engine build on (moving a
// run, finishing it, emitting effects, the ledger, the env of expressions). It imports
// nothing of engine, so that engine and the stage types can import it.
package core

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/deadline"
	"github.com/org/pipeline-action/engine/internal/settle"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
)

type Eval struct {
	Cfg   *lang.Config
	St    *model.State
	Facts *model.Facts
	Now   time.Time
	Actor string
	// mark is the kind of the next transition of a run recorded (MarkNext).
	mark struct {
		run  *model.Run
		kind string
	}
	// Settle is what this evaluation knows of the effects performed.
	Settle SettleScope
	// Intents is what the write-ahead effects of this evaluation are judged by.
	Intents settle.Intents
	// Dispatch is what a dispatch's nonce is made from and signed with.
	Dispatch DispatchScope
	Effects  []model.Effect
	log      []string
	Visits   map[string]int // see moveGuard
	// DoneBy: see Result.DoneBy.
	DoneBy string
	// Gate is the run whose gates are being evaluated (engine's withRun); nil elsewhere.
	Gate *GateScope
	// NeedsFiles: a condition needed the changed files, which the facts do not hold.
	NeedsFiles bool
	// issue is set when the subject is an issue.
	Issue *subject.Issue
	// Deadlines is what this evaluation knows of its runs' deadlines.
	Deadlines deadline.Table
}

func (e *Eval) Logf(format string, args ...any) { e.log = append(e.log, fmt.Sprintf(format, args...)) }

// ResultOf is the evaluation's result; changed says whether the state differs from the
// one passed in (package snapshot), and bumps Seq.
func (e *Eval) ResultOf(changed bool) model.Result {
	if changed {
		e.St.Seq++
	}
	return model.Result{State: e.St, Effects: e.Effects, Changed: changed, Log: e.log, Visits: e.Visits, NeedsFiles: e.NeedsFiles, DoneBy: e.DoneBy}
}

func (e *Eval) Subject() string {
	return e.Facts.Repo + "#" + strconv.Itoa(e.Facts.PR.Number)
}

// ReachableMerge returns the first merge_pr stage of p reachable from stage from.
func ReachableMerge(p *lang.Pipeline, from string) *lang.Stage {
	index := map[string]int{}
	for i, s := range p.Stages {
		index[s.ID] = i
	}
	start, ok := index[from]
	if !ok {
		return nil
	}
	seen := map[int]bool{start: true}
	for queue := []int{start}; len(queue) > 0; queue = queue[1:] {
		i := queue[0]
		if s := p.Stages[i]; s.Type == lang.StageAction && s.Action == lang.ActionMergePR {
			return s
		}
		for _, t := range lang.Successors(p, i) {
			if j, ok := index[t]; ok && !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return nil
}

func (e *Eval) TriggerStateSince(p *lang.Pipeline) (since time.Time, level bool) {
	pr, t := e.Facts.PR, p.Trigger
	if pr.State != model.PROpen {
		return time.Time{}, true
	}
	if e.Issue != nil {
		return e.Issue.TriggerSince(p)
	}
	switch t.Event {
	case "pull_request.opened":
		return pr.CreatedAt, true
	case "pull_request.reopened":
		return pr.Last(model.TimelineReopened, ""), true
	case "pull_request.ready_for_review":
		if pr.Draft {
			return time.Time{}, true
		}
		return pr.Last(model.TimelineReadyForReview, ""), true
	case "pull_request.converted_to_draft":
		if !pr.Draft {
			return time.Time{}, true
		}
		return pr.Last(model.TimelineConvertedToDraft, ""), true
	case "pull_request.labeled":
		if len(t.Labels) == 0 {
			return time.Time{}, false // any label: a happening
		}
		for _, l := range t.Labels {
			if !pr.HasLabel(l) {
				return time.Time{}, true
			}
			at := pr.Last(model.TimelineLabeled, l)
			if at.IsZero() {
				at = pr.CreatedAt // on the PR, but its event is beyond what was read
			}
			if at.After(since) {
				since = at
			}
		}
		return since, true
	}
	return time.Time{}, false
}

// StartedSince reports whether pipeline has started a run since its trigger last held
// from since on.
func (e *Eval) StartedSince(pipeline string, since time.Time) bool {
	if at := e.St.Marks[pipeline].At; !at.IsZero() && !at.Before(since) {
		return true
	}
	for _, r := range e.runsOf(pipeline) {
		if r.Parent != "" {
			continue // a sub-pipeline's run was not started by the trigger
		}
		at := r.TriggerAt
		if at.IsZero() {
			at = r.StartedAt
		}
		if !at.Before(since) {
			return true
		}
	}
	return false
}

// runsOf returns the record of every run of pipeline the state remembers: the runs in
// it, and the finished runs that left it (State.Past).
func (e *Eval) runsOf(pipeline string) []model.PastRun {
	var out []model.PastRun
	for _, p := range e.St.Past {
		if p.Pipeline == pipeline {
			out = append(out, p)
		}
	}
	for _, r := range e.St.Runs {
		if r.Pipeline == pipeline {
			out = append(out, r.Past())
		}
	}
	return out
}

// NoLongerMatches says why a run's subject no longer meets the conditions of its
// pipeline's trigger that must keep holding (its base branch, its author), or "".
func (e *Eval) NoLongerMatches(p *lang.Pipeline) string {
	pr, t := e.Facts.PR, p.Trigger
	if pr.State != model.PROpen {
		return ""
	}
	if t.BaseBranch != "" && pr.BaseRef != t.BaseBranch {
		return fmt.Sprintf("the base branch changed to %q; pipeline %q runs on pull requests into %q", pr.BaseRef, p.Name, t.BaseBranch)
	}
	if t.Author != "" && !strings.EqualFold(pr.Author, t.Author) {
		return fmt.Sprintf("the author is %q; pipeline %q runs on pull requests by %q", pr.Author, p.Name, t.Author)
	}
	return ""
}

func (e *Eval) Started(pipeline, key string) bool {
	if key != "" && e.St.Marks[pipeline].Key == key {
		return true
	}
	for _, r := range e.runsOf(pipeline) {
		if key != "" && r.TriggerKey == key {
			return true
		}
	}
	return false
}

func (e *Eval) Active(pipeline string) *model.Run {
	for _, r := range e.St.Runs {
		if r.Pipeline == pipeline && !r.Status.Final() && r.Parent == "" {
			return r
		}
	}
	return nil
}

// ClosingTrigger reports whether p starts when its subject is closed (pull_request.closed,
// issues.closed): the one kind of pipeline that starts on a subject that is not open.
func ClosingTrigger(p *lang.Pipeline) bool {
	return strings.HasSuffix(p.Trigger.Event, ".closed")
}

// GateScope is the run whose gates are being evaluated: what a check that reads the run
// (its env), or another of its pull requests' ledger, is given.
type GateScope struct {
	Env      func() lang.Env
	Run      *model.Run
	Pipeline *lang.Pipeline
}

// SettleScope is what an evaluation knows of the effects performed: in a Settle, a stage
// whose effect was just refused waits for the next event instead of being tried again at
// once, and the runs after a refused one wait too.
type SettleScope struct {
	Settling bool            // this evaluation is a Settle
	Refused  map[string]bool // the runs whose effect was refused in this evaluation
}

// Settling reports whether this evaluation is a Settle.
func (e *Eval) Settling() bool { return e.Settle.Settling }

// NoteRefused records that run's effect was refused in this evaluation.
func (e *Eval) NoteRefused(run *model.Run) {
	if e.Settle.Refused == nil {
		e.Settle.Refused = map[string]bool{}
	}
	e.Settle.Refused[run.ID] = true
}

// WasRefused reports whether run's effect was refused in this Settle.
func (e *Eval) WasRefused(run *model.Run) bool { return e.Settle.Settling && e.Settle.Refused[run.ID] }

// DispatchScope is what a dispatch's nonce is made from and signed with: the event's key
// (Input.Key) and the state key's signer (Input.Nonces).
type DispatchScope struct {
	Delivery string
	Nonces   model.NonceSigner
}

// ConfigFor returns the config run follows: the pinned one it started under, or e.Cfg.
func (e *Eval) ConfigFor(run *model.Run) *lang.Config {
	if run.ConfigOID != "" && run.ConfigOID != e.Cfg.BlobOID {
		if old := e.Cfg.Pinned[run.ConfigOID]; old != nil {
			return old
		}
	}
	return e.Cfg
}
