package rules

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// A pipeline's `on_complete` and `on_error` lists: actions run once, when a run completes,
// or fails (an escalated run runs on_error too). They are asked for in the evaluation that
// ends the run. The run is final by then and holds no intent, so a posted comment or a new
// issue of a list is performed only by the invocation whose save of that final state won
// (Effect.WriteAhead): at most once. Labels, assignees, review requests and closing an
// issue are idempotent. What an item cannot do is logged and said in the run's message.

// List asks for the effects of the items of list (ListOnComplete or ListOnError) of
// run's pipeline.
func List(k Kernel, run *model.Run, list string) {
	p := k.PipelineFor(run)
	if p == nil {
		return
	}
	items := p.OnComplete
	if list == model.ListOnError {
		items = p.OnError
	}
	env := lang.Env(nil)
	for i, item := range items {
		if env == nil {
			env = k.TemplateEnv(p, run)
		}
		eff := model.Effect{Key: fmt.Sprintf("%s/%s/%d/%s", run.ID, list, i+1, item.Action), Run: run.ID, Stage: list,
			Kind: model.EffectKind(item.Action), Number: k.Facts().PR.Number}
		plan := k.PlanItem(run, item, eff, env)
		if item.Action == lang.ActionSetVariable || item.Action == lang.ActionSetShared {
			env = nil // the items after it read the new value
		}
		what := fmt.Sprintf("run %s: %s item %d (%s at %s)", run.ID, list, i+1, item.Action, item.Pos)
		switch {
		case plan.Err != "":
			k.Logf("%s: %s", what, plan.Err)
			msg := fmt.Sprintf("%s item %d (%s): %s", list, i+1, item.Action, plan.Err)
			if run.Message == "" {
				run.Message = msg
			} else {
				run.Message += "; " + msg
			}
		case plan.Done != "":
			k.Logf("%s: %s", what, plan.Done)
		default:
			if plan.Eff.Kind.WriteAhead() {
				plan.Eff.WriteAhead = true
			}
			k.Logf("%s: asked for", what)
			k.Emit(plan.Eff)
		}
	}
}

// ListOutcome logs the outcome of an effect of a pipeline's list, and reports whether o is
// one: it changes nothing (the run is final).
func ListOutcome(logf func(string, ...any), o model.Outcome) bool {
	parts := strings.Split(o.Key, "/")
	if len(parts) < 4 {
		return false
	}
	switch parts[len(parts)-3] {
	case model.ListOnComplete, model.ListOnError, model.RuleOnFail, model.RuleOnConflict, model.RuleOnCIFailure, model.ReactOnEvents:
	default:
		return false
	}
	if o.Err == "" {
		logf("%s done", o.Key)
	} else {
		logf("%s: %s; a pipeline's list is not tried again", o.Key, o.Err)
	}
	return true
}
