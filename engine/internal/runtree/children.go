package runtree

import (
	"fmt"
	"github.com/org/pipeline-action/engine/internal/core"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kernel is what starting, advancing and reaping children ask of the evaluator that
// moves runs.
type Kernel interface {
	// Tree is the runs of the state as they stand now.
	Tree() Tree
	// Add puts run, a new child, in the state.
	Add(run *model.Run)
	Now() time.Time
	Logf(format string, args ...any)
	// NextRunNumber numbers the next run of pipeline.
	NextRunNumber(pipeline string) int
	// ConfigFor is the config run follows (the one pinned when it started).
	ConfigFor(run *model.Run) *lang.Config
	// Env is the expression environment of run, which follows p.
	Env(p *lang.Pipeline, run *model.Run) lang.Env
	// Init gives child, a new run of p, its context (passed over its pipeline's own), its
	// variables and the head it starts on.
	Init(p *lang.Pipeline, child *model.Run, passed map[string]any)
	// Finish ends run with status, for target, saying why.
	Finish(run *model.Run, status model.RunStatus, target, why string)
	// Enter moves run into stage to, from from.
	Enter(run *model.Run, from, to, why string)
	// Advance evaluates run, which follows p, until it stops moving.
	Advance(p *lang.Pipeline, run *model.Run)
	// Follow makes parent's stage or branch link follow where child, which ended, stands.
	Follow(parent *model.Run, link *lang.Stage, branch bool, child *model.Run)
}

// Start starts the child run of run's current attempt of s, a `type: pipeline` stage of p
// or a pipeline branch of run's stage (whose id then names the link). It returns the
// child, or nil, why it could not start and whether that is fatal for the run (the
// nesting limit, an unknown pipeline) rather than an error the stage's on_error handles
// (a context value that does not render). The child's context is its pipeline's own
// `context:`, the parent's context over it, and s's `context:` (rendered over the
// parent's env) over that.
func Start(k Kernel, p *lang.Pipeline, run *model.Run, s *lang.Stage) (child *model.Run, why string, fatal bool) {
	sr := run.Stages[s.ID]
	if sr == nil {
		return nil, fmt.Sprintf("stage %q has not been entered", s.ID), false
	}
	if c := k.Tree().ChildOf(run, s); c != nil {
		return c, "", false
	}
	cfg := k.ConfigFor(run)
	cp := cfg.Pipeline(s.Pipeline)
	if cp == nil {
		return nil, fmt.Sprintf("sub-pipeline %q of stage %q is not in the config", s.Pipeline, s.ID), true
	}
	if limit := maxNesting(cfg); run.Depth+1 > limit {
		return nil, fmt.Sprintf("sub-pipeline %q of stage %q would nest %d levels deep, more than settings.max_nesting (%d)",
			s.Pipeline, s.ID, run.Depth+1, limit), true
	}
	passed, why := contextFor(k.Env(p, run), run, s)
	if why != "" {
		return nil, why, false
	}
	now := k.Now()
	child = &model.Run{
		ID:            fmt.Sprintf("%s/%s/%d", cp.Name, numberText(run.Subject), k.NextRunNumber(cp.Name)),
		Pipeline:      cp.Name,
		ConfigOID:     run.ConfigOID,
		Subject:       run.Subject,
		Status:        model.RunRunning,
		Stages:        map[string]*model.StageRun{},
		StartedAt:     now,
		UpdatedAt:     now,
		Parent:        model.ParentRef(run.ID, s.ID),
		ParentAttempt: sr.Attempt,
		Depth:         run.Depth + 1,
		Head:          run.Head, // what people did before the parent saw its head stays stale
		HeadSince:     run.HeadSince,
	}
	k.Add(child)
	sr.Child = child.ID
	why = fmt.Sprintf("started by stage %q of run %s (attempt %d)", s.ID, run.ID, sr.Attempt)
	k.Logf("run %s %s", child.ID, why)
	k.Init(cp, child, passed)
	if len(cp.Stages) == 0 {
		k.Finish(child, model.RunCompleted, lang.TargetComplete, "the pipeline has no stages")
		return child, "", false
	}
	k.Enter(child, "", cp.Stages[0].ID, why)
	return child, "", false
}

// contextFor is the context run passes to the child of s: its own, and s's over it.
func contextFor(env lang.Env, run *model.Run, s *lang.Stage) (map[string]any, string) {
	passed := map[string]any{}
	for k, v := range run.Context {
		passed[k] = v
	}
	for _, kv := range s.Context {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			return nil, fmt.Sprintf("context %q of stage %q: %v", kv.Key, s.ID, err)
		}
		passed[kv.Key] = lang.JSONValue(v)
	}
	return passed, ""
}

// Advance starts — once per attempt — and advances the child run of run's s, a pipeline
// stage of p or a pipeline branch of run's stage, and returns the child as it stands
// after this evaluation, for the stage to follow its end. When no child could start it
// returns nil, why, and whether that is fatal for the run.
func Advance(k Kernel, p *lang.Pipeline, run *model.Run, s *lang.Stage) (child *model.Run, why string, fatal bool) {
	t := k.Tree()
	sr := run.Stages[s.ID]
	child = t.ChildOf(run, s)
	if child == nil {
		if sr != nil && sr.Child != "" && t.ByID(sr.Child) == nil {
			// The child left the live state before its end reached the parent (it cannot in
			// normal operation: a child's end is followed in the evaluation it happens in).
			return nil, fmt.Sprintf("the sub-pipeline run %s is no longer in the state", sr.Child), false
		}
		if child, why, fatal = Start(k, p, run, s); child == nil {
			return nil, why, fatal
		}
	}
	if !child.Status.Final() && child.Status != model.RunEscalated {
		if _, busy := core.OpenIntent(child); !busy {
			advance(k, child)
		}
	}
	return child, "", false
}

// advance moves child as far as it goes in this evaluation; a child whose pipeline left
// the config fails.
func advance(k Kernel, child *model.Run) {
	if cp := k.Tree().Cfg.PipelineFor(child); cp != nil {
		k.Advance(cp, child)
		return
	}
	k.Finish(child, model.RunFailed, lang.TargetFail, fmt.Sprintf("pipeline %q is no longer in the config", child.Pipeline))
}

// Reap cancels every unfinished child whose parent no longer waits for it: the parent is
// final, escalated or gone, or stands elsewhere than that attempt of the stage that
// started the child. And a child that ended while its parent still stands at that attempt
// (cancelled by its own on_events, say) is followed at once, so that no parent is left
// hanging on a child that ended. Parents are handled before their children, so a chain
// ends from the top in one pass.
func Reap(k Kernel) {
	for changed := true; changed; {
		changed = false
		t := k.Tree()
		for _, child := range t.Runs {
			if child.Parent == "" {
				continue
			}
			parent, stageID := t.ParentOf(child)
			waits := t.waits(parent, stageID, child)
			switch {
			case !waits && !child.Status.Final():
				k.Finish(child, model.RunCancelled, lang.TargetCancelled, orphaned(parent, stageID, child))
				changed = true
			case waits && (child.Status.Final() || child.Status == model.RunEscalated):
				changed = follow(k, t, parent, stageID, child) || changed
			}
		}
	}
}

// waits reports whether parent still waits, at stage id, for child.
func (t Tree) waits(parent *model.Run, id string, child *model.Run) bool {
	if parent == nil || parent.Status.Final() || parent.Status == model.RunEscalated || !t.StandsAt(parent, id) {
		return false
	}
	sr := parent.Stages[id]
	return sr != nil && sr.Child == child.ID && sr.Attempt == child.ParentAttempt && !core.IsDone(sr.Status) &&
		sr.Status != model.StageSkipped && sr.Status != model.StageCancelled
}

// follow hands child's end to the stage or branch of parent that waits for it.
func follow(k Kernel, t Tree, parent *model.Run, id string, child *model.Run) bool {
	p := t.Cfg.PipelineFor(parent)
	if p == nil {
		return false
	}
	if s := p.Stage(id); s != nil && s.Type == lang.StagePipeline {
		k.Follow(parent, s, false, child)
		return true
	}
	if b := BranchIn(p.Stage(parent.Stage), id); b != nil && b.Type == lang.StagePipeline {
		k.Follow(parent, b, true, child)
		return true
	}
	return false
}

// orphaned is why a child whose parent no longer waits for it is cancelled.
func orphaned(parent *model.Run, id string, child *model.Run) string {
	if parent == nil {
		return "its parent run is no longer in the state"
	}
	why := fmt.Sprintf("its parent run %s is %s at %s", parent.ID, parent.Status, parent.Stage)
	if sr := parent.Stages[id]; sr != nil && !parent.Status.Final() && parent.Status != model.RunEscalated {
		why = fmt.Sprintf("its parent run %s left attempt %d of %q", parent.ID, child.ParentAttempt, id)
		if sr.Status == model.StageCancelled && sr.Message != "" {
			why += " (" + sr.Message + ")"
		}
	}
	return why
}

// maxNesting is the run-time nesting limit of cfg.
func maxNesting(cfg *lang.Config) int {
	if cfg.Settings.MaxNesting > 0 {
		return cfg.Settings.MaxNesting
	}
	return lang.DefaultMaxNesting
}

// numberText is the number of an "owner/repo#N" subject, as written.
func numberText(subject string) string {
	if i := strings.LastIndexByte(subject, '#'); i >= 0 {
		return subject[i+1:]
	}
	return subject
}
