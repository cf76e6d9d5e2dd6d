package engine

import (
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// templateEnv is what templates of run's actions read: what env gives (the run's context,
// variables, stages' outputs, github, run, subject, agents) and `trigger` as the facts tell
// it (trigger.pull_request.number, .title, .user.login, .head.ref, .base.ref, …).
func (e *eval) templateEnv(p *lang.Pipeline, run *model.Run) lang.Env {
	env := e.env(p, run)
	env["trigger"] = model.TriggerEnv(e.Facts)
	return env
}
