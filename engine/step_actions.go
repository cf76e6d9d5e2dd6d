package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/lang"
)

// The actions beyond merging, labelling and commenting (close_issue, create_issue, label
// ({add, remove}), notify, request_reviewers, assign, comments with templates) are planned
// by actionplan; the stage moves on as the plan says.

// templateEnv is what templates of run's actions read: what env gives (the run's context,
// variables, stages' outputs, github, run, subject, agents) and `trigger` as the facts tell
// it (trigger.pull_request.number, .title, .user.login, .head.ref, .base.ref, …).
func (e *eval) templateEnv(p *lang.Pipeline, run *model.Run) lang.Env {
	env := e.env(p, run)
	env["trigger"] = model.TriggerEnv(e.Facts)
	return env
}

// stageActionPlanned asks for the effect planned for an action stage, or moves the stage on
// when there is nothing to do or it cannot be done. It reports whether the run moved.
func (e *eval) stageActionPlanned(p *lang.Pipeline, run *model.Run, stage *lang.Stage, eff model.Effect) (moved, asked bool, out model.Effect) {
	if e.updateByActionsToken(run, stage) {
		return false, false, model.Effect{}
	}
	plan := actionplan.Stage(e.Eval, run, stage, eff, e.templateEnv(p, run))
	switch {
	case strings.HasPrefix(plan.Err, "not supported yet"):
		run.Stages[stage.ID].Status = model.StageFailed
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("%s (stage %q at %s)", plan.Err, stage.ID, stage.Pos))
		return false, false, model.Effect{}
	case plan.Err != "":
		return e.actionFailed(run, stage, plan.Err), false, model.Effect{}
	case plan.Done != "":
		e.Logf("run %s: %s: %s", run.ID, stage.ID, plan.Done)
		e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, plan.Done)
		return true, false, model.Effect{}
	}
	return false, true, plan.Eff
}
