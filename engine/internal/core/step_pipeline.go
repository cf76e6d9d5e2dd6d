package core

import (
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// ConfigFor returns the config run follows: the pinned one it started under, or e.cfg.
func (e *Eval) ConfigFor(run *model.Run) *lang.Config {
	if run.ConfigOID != "" && run.ConfigOID != e.Cfg.BlobOID {
		if old := e.Cfg.Pinned[run.ConfigOID]; old != nil {
			return old
		}
	}
	return e.Cfg
}

// maxNesting is the run-time nesting limit of cfg.
func MaxNesting(cfg *lang.Config) int {
	if cfg.Settings.MaxNesting > 0 {
		return cfg.Settings.MaxNesting
	}
	return lang.DefaultMaxNesting
}

// RunByID returns the run of the state with that id, or nil.
func (e *Eval) RunByID(id string) *model.Run {
	for _, r := range e.St.Runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// ChildOf returns the child run of run's current attempt of stage, or nil.
func (e *Eval) ChildOf(run *model.Run, stage *lang.Stage) *model.Run {
	sr := run.Stages[stage.ID]
	if sr == nil || sr.Child == "" {
		return nil
	}
	c := e.RunByID(sr.Child)
	if c == nil || c.Parent != model.ParentRef(run.ID, stage.ID) || c.ParentAttempt != sr.Attempt {
		return nil
	}
	return c
}

// ParentOf returns the parent run of child and the stage id it was started by; nil when
// child has no parent or its parent is not in the state.
func (e *Eval) ParentOf(child *model.Run) (*model.Run, string) {
	if child.Parent == "" {
		return nil, ""
	}
	id, stage := model.SplitParent(child.Parent)
	return e.RunByID(id), stage
}

// LiveChildren returns the children of run that are not final and that run still waits
// for (at its current stage, or at an open branch of it).
func (e *Eval) LiveChildren(run *model.Run) []*model.Run {
	if run.Status.Final() {
		return nil
	}
	var out []*model.Run
	for _, c := range e.St.Runs {
		if c.Parent == "" || c.Status.Final() {
			continue
		}
		id, stage := model.SplitParent(c.Parent)
		if id != run.ID || !e.StandsAt(run, stage) {
			continue
		}
		if sr := run.Stages[stage]; sr != nil && sr.Child == c.ID && sr.Attempt == c.ParentAttempt {
			out = append(out, c)
		}
	}
	return out
}

// SubjectNumberText is the number of an "owner/repo#N" subject, as written.
func SubjectNumberText(subject string) string {
	if i := strings.LastIndexByte(subject, '#'); i >= 0 {
		return subject[i+1:]
	}
	return subject
}

// ChildOutputs are the outputs a completed child hands its parent's stage: each of its
// stages' outputs, by stage id.
func ChildOutputs(child *model.Run) map[string]any {
	out := map[string]any{}
	ids := make([]string, 0, len(child.Stages))
	for id := range child.Stages {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if o := child.Stages[id].Outputs; len(o) > 0 {
			out[id] = o
		}
	}
	if len(out) == 0 {
		return nil
	}
	return lang.JSONSafe(out)
}

// StandsAt reports whether run stands at stage id: its current stage, or a branch of its
// current (parallel) stage that is still open.
func (e *Eval) StandsAt(run *model.Run, id string) bool {
	if run.Stage == id {
		return true
	}
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return false
	}
	if b := BranchIn(p.Stage(run.Stage), id); b != nil {
		sr := run.Stages[id]
		return sr != nil && (sr.Status == model.StageWaiting || sr.Status == model.StageActing || sr.Status == model.StageRetrying)
	}
	return false
}

// BranchIn returns the branch id of parallel stage s, or nil.
func BranchIn(s *lang.Stage, id string) *lang.Stage {
	if s == nil || s.Type != lang.StageParallel {
		return nil
	}
	for _, b := range s.Branches {
		if b != nil && b.ID == id {
			return b
		}
	}
	return nil
}

// RejectingStage returns the stage a child that did not complete ended at, and its
// verdict, when that verdict rejects (reject, revise, followup); else "", "". A child
// ended by the escalation it handed to its parent is judged by the stage it escalated at.
func RejectingStage(child *model.Run) (stage, verdict string) {
	if child.Status == model.RunCompleted {
		return "", ""
	}
	if sr := child.Stages[child.Stage]; sr != nil && Rejects(sr.Verdict) {
		return child.Stage, sr.Verdict
	}
	return "", ""
}
