package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/react"
	"github.com/org/pipeline-action/engine/internal/settle"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// settleKernel is the settler's view of the evaluation.
type settleKernel struct{ e *eval }

func (k settleKernel) Now() time.Time                  { return k.e.Now }
func (k settleKernel) Logf(format string, args ...any) { k.e.Logf(format, args...) }
func (k settleKernel) Facts() *model.Facts             { return k.e.Facts }
func (k settleKernel) Config() *lang.Config            { return k.e.Cfg }
func (k settleKernel) Runs() []*model.Run              { return k.e.St.Runs }
func (k settleKernel) Intents() *settle.Intents        { return &k.e.Intents }
func (k settleKernel) NoteRefused(run *model.Run)      { k.e.NoteRefused(run) }
func (k settleKernel) Escalate(run *model.Run, why string) {
	k.e.escalate(run, why)
}

func (k settleKernel) FindEffect(key string) (*model.Run, *lang.Stage) { return k.e.FindEffect(key) }

func (k settleKernel) Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string) {
	k.e.leave(run, s, status, target, why)
}

func (k settleKernel) Stage(run *model.Run, id string) *lang.Stage {
	if p := k.e.Cfg.PipelineFor(run); p != nil {
		return core.StageOrBranch(p, id)
	}
	return nil
}

func (k settleKernel) Settled(run *model.Run, s *lang.Stage, o model.Outcome) bool {
	st, ok := stageTypes[s.Type].t.(stage.Settler)
	if !ok {
		return false
	}
	c := k.e.context(k.e.Cfg.PipelineFor(run), run)
	c.applyIn(s, st.Settled(c, run, s, o))
	return true
}

func (k settleKernel) AgentSettled(run *model.Run, s *lang.Stage, o model.Outcome) {
	p := k.e.Cfg.PipelineFor(run)
	k.e.apply(p, run, s, agent.Settle(k.e.context(p, run), run, s, o))
}

func (k settleKernel) Trace(run *model.Run, s *lang.Stage, it model.Intent) (agent.Trace, int64, string) {
	return agent.DispatchTrace(k.e.context(k.e.Cfg.PipelineFor(run), run), s, it)
}

func (k settleKernel) Own(s *lang.Stage) stage.Effects { return effectsOf(s) }

func (k settleKernel) OwnDecided(run *model.Run, s *lang.Stage, decide func(stage.Context) stage.Decision) {
	p := k.e.Cfg.PipelineFor(run)
	k.e.apply(p, run, s, decide(k.e.context(p, run)))
}

func (k settleKernel) ActionFailed(run *model.Run, s *lang.Stage, why string) {
	k.e.actionFailed(run, s, why)
}
func (k settleKernel) ActionDoneWhy(s *lang.Stage) string { return k.e.ActionDoneWhy(s) }

func (k settleKernel) NotifyAgentUnknown(run *model.Run, s *lang.Stage, it model.Intent) bool {
	return react.NotifyAgentUnknown(reactKernel{k.e}, run, s, it)
}

func (k settleKernel) OnRunPR(run *model.Run, it model.Intent) func() {
	return intentOnRunPR(k.e, run, it)
}
