package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/internal/runtree"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/pipeline"
)

// tree is the runs of the state as parents and children.
func (e *eval) tree() runtree.Tree { return runtree.Tree{Runs: e.St.Runs, Cfg: e.Cfg} }

func (c *stageContext) Child(s *lang.Stage) (*model.Run, string, bool) {
	return runtree.Advance(treeKernel{c.e}, c.p, c.run, s)
}

func (c *stageContext) EndChild(child *model.Run, why string) {
	c.e.finish(child, model.RunCancelled, TargetCancelled, why)
}

// treeKernel is the kernel as the tree of runs sees it.
type treeKernel struct{ e *eval }

func (k treeKernel) Tree() runtree.Tree                    { return k.e.tree() }
func (k treeKernel) Add(run *model.Run)                    { k.e.St.Runs = append(k.e.St.Runs, run) }
func (k treeKernel) Now() time.Time                        { return k.e.Now }
func (k treeKernel) Logf(format string, args ...any)       { k.e.Logf(format, args...) }
func (k treeKernel) NextRunNumber(pipeline string) int     { return k.e.NextRunNumber(pipeline) }
func (k treeKernel) ConfigFor(run *model.Run) *lang.Config { return k.e.ConfigFor(run) }
func (k treeKernel) Env(p *lang.Pipeline, run *model.Run) lang.Env {
	return scope.Env(scopeKernel{k.e}, p, run)
}
func (k treeKernel) Advance(p *lang.Pipeline, run *model.Run) { k.e.advanceRun(p, run) }

func (k treeKernel) Init(p *lang.Pipeline, child *model.Run, passed map[string]any) {
	scope.Start(scopeKernel{k.e}, p, child, passed) // its own pipeline's variables, over the context it was given
	k.e.NoteHead(child)
}

func (k treeKernel) Finish(run *model.Run, status model.RunStatus, target, why string) {
	k.e.finish(run, status, target, why)
}

func (k treeKernel) Enter(run *model.Run, from, to, why string) { k.e.enter(run, from, to, why) }

func (k treeKernel) Follow(parent *model.Run, link *lang.Stage, branch bool, child *model.Run) {
	c := k.e.context(k.e.Cfg.PipelineFor(parent), parent)
	if branch {
		c.applyIn(link, pipeline.FollowBranch(c, parent, link, child))
		return
	}
	c.applyIn(link, pipeline.Follow(c, parent, link, child))
}

// commandSkips reports whether a chat-op command passes over run: every command but
// cancel and status acts on the innermost live run of a chain, so a parent standing at a
// pipeline stage whose child is live is left to its child. cancel cancels every run of
// the subject (parents and children), and status reports on each.
func (e *eval) commandSkips(run *model.Run, verb string) bool {
	return verb != model.CmdCancel && verb != model.CmdStatus && len(e.tree().LiveChildren(run)) > 0
}

// childMerged reports whether the pull request was merged by a live run below run (its
// merge stage done, or ahead of it with the state after the merge not saved): the closed
// event of that merge does not cancel run, whose child ends completed when advanced.
func (e *eval) childMerged(run *model.Run) bool {
	if e.Facts.PR.State != model.PRMerged {
		return false
	}
	t := e.tree()
	for _, r := range e.St.Runs {
		if r == run || r.Parent == "" || !t.Descends(r, run) {
			continue
		}
		p := e.Cfg.PipelineFor(r)
		if p == nil {
			continue
		}
		if !r.Status.Final() && e.ownMerge(p, r) != nil {
			return true
		}
		// Completed by its merge (its intent reconciled in this evaluation), and its parent
		// has not followed it yet.
		if s := p.Stage(r.Stage); r.Status != model.RunCompleted || s == nil || s.Type != lang.StageAction || s.Action != lang.ActionMergePR {
			continue
		}
		if parent, link := t.ParentOf(r); parent != nil && t.StandsAt(parent, link) &&
			parent.Stages[link] != nil && parent.Stages[link].Child == r.ID {
			return true
		}
	}
	return false
}
