package engine

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// scopeKernel is the evaluation as a run's scope (package scope) reads it.
type scopeKernel struct{ e *eval }

func (k scopeKernel) Config() *lang.Config            { return k.e.Cfg }
func (k scopeKernel) State() *model.State             { return k.e.St }
func (k scopeKernel) Facts() *model.Facts             { return k.e.Facts }
func (k scopeKernel) Logf(format string, args ...any) { k.e.Logf(format, args...) }

func (k scopeKernel) SubjectEnv(p *lang.Pipeline, run *model.Run, env lang.Env) {
	kindOf(k.e, p).Env(core.Scope(k.e.Eval), run, env)
}

func (k scopeKernel) Branches(p *lang.Pipeline, run *model.Run) any {
	if b := parallel.Env(k.e.context(p, run), run); b != nil {
		return b
	}
	return nil
}
