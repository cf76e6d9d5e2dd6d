package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/lang"
)

// A pipeline's `on_complete` and `on_error` lists: actions run once, when a run completes,
// or fails (an escalated run runs on_error too). They are asked for in the evaluation that
// ends the run. The run is final by then and holds no intent, so a posted comment or a new
// issue of a list is performed only by the invocation whose save of that final state won
// (Effect.WriteAhead): at most once. Labels, assignees, review requests and closing an
// issue are idempotent. What an item cannot do is logged and said in the run's message.

// runList asks for the effects of the items of list (ListOnComplete or ListOnError) of
// run's pipeline.
func (e *eval) runList(run *Run, list string) {
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return
	}
	items := p.OnComplete
	if list == ListOnError {
		items = p.OnError
	}
	env := lang.Env(nil)
	for i, item := range items {
		if env == nil {
			env = e.templateEnv(p, run)
		}
		eff := Effect{Key: fmt.Sprintf("%s/%s/%d/%s", run.ID, list, i+1, item.Action), Run: run.ID, Stage: list,
			Kind: EffectKind(item.Action), Number: e.Facts.PR.Number}
		plan := e.planItem(run, item, eff, env)
		if item.Action == lang.ActionSetVariable || item.Action == lang.ActionSetShared {
			env = nil // the items after it read the new value
		}
		what := fmt.Sprintf("run %s: %s item %d (%s at %s)", run.ID, list, i+1, item.Action, item.Pos)
		switch {
		case plan.Err != "":
			e.Logf("%s: %s", what, plan.Err)
			msg := fmt.Sprintf("%s item %d (%s): %s", list, i+1, item.Action, plan.Err)
			if run.Message == "" {
				run.Message = msg
			} else {
				run.Message += "; " + msg
			}
		case plan.Done != "":
			e.Logf("%s: %s", what, plan.Done)
		default:
			if plan.Eff.Kind.WriteAhead() {
				plan.Eff.WriteAhead = true
			}
			e.Logf("%s: asked for", what)
			e.Effects = append(e.Effects, plan.Eff)
		}
	}
}

// planItem plans one item of a list.
func (e *eval) planItem(run *Run, item lang.ActionItem, eff Effect, env lang.Env) core.PlannedAction {
	a := item.Args
	switch item.Action {
	case lang.ActionCloseIssue:
		if a.Kind == lang.KindNull {
			return core.PlannedAction{Done: "no issue to close (none given)"}
		}
		return e.planCloseIssue(eff, argTemplate(a), env)
	case lang.ActionComment:
		msg, target := a, lang.Value{}
		if a.Kind == lang.KindMap {
			msg, _ = argField(a, "message")
			target, _ = argField(a, "target")
		}
		if t := strings.TrimSpace(target.Scalar); target.Kind != lang.KindNull && t != "" {
			if why := e.commentTarget(run, t, &eff); why != "" { // step_issue.go
				return core.PlannedAction{Err: why}
			}
		}
		body, err := core.RenderText(argTemplate(msg), env)
		if err != nil {
			return core.PlannedAction{Err: err.Error()}
		}
		eff.Kind = EffectComment
		return e.PlanComment(run, eff, body)
	case lang.ActionLabel:
		return e.PlanLabel(eff, argStrings(a), nil)
	case lang.ActionNotify:
		target, message := a, lang.Value{}
		if a.Kind == lang.KindMap {
			target, _ = argField(a, "target")
			message, _ = argField(a, "message")
		}
		var m *lang.Template
		if message.Kind != lang.KindNull {
			m = argTemplate(message)
		}
		return e.planNotify(run, eff, argTemplate(target), m, env)
	case lang.ActionCreateIssue:
		title, _ := argField(a, "title")
		body, hasBody := argField(a, "body")
		labels, _ := argField(a, "labels")
		var bt *lang.Template
		if hasBody && body.Kind != lang.KindNull {
			bt = argTemplate(body)
		}
		return e.PlanCreateIssue(run, eff, argTemplate(title), bt, "", argStrings(labels), env)
	case lang.ActionRequestReviewers:
		if a.Kind != lang.KindMap {
			return e.PlanRequestReviewers(eff, argStrings(a), nil, "")
		}
		rs, _ := argField(a, "reviewers")
		ts, _ := argField(a, "teams")
		g, _ := argField(a, "group")
		return e.PlanRequestReviewers(eff, argStrings(rs), argStrings(ts), g.Scalar)
	case lang.ActionAssign:
		if a.Kind != lang.KindMap {
			return e.PlanAssign(eff, argStrings(a), "")
		}
		as, _ := argField(a, "assignees")
		g, _ := argField(a, "group")
		return e.PlanAssign(eff, argStrings(as), g.Scalar)
	case lang.ActionSetVariable, lang.ActionSetShared: // step_variables.go
		name, _ := argField(a, "name")
		value, _ := argField(a, "value")
		if target, ok := enableTarget(a); ok {
			return dormant.PlanSet(e.Cfg, e.St, target, value, env)
		}
		return e.PlanSetVariable(run, item.Action, name.Scalar, value, env)
	}
	return core.PlannedAction{Err: fmt.Sprintf("not supported yet: %q in a pipeline's list", item.Action)}
}

// enableTarget is the pipeline a set_variable item enables, if it names one.
func enableTarget(a lang.Value) (string, bool) {
	p, ok := argField(a, "pipeline")
	if !ok {
		p, ok = argField(a, "workflow")
	}
	return p.Scalar, ok
}

// argField is the value of key in the map a, and whether a has it.
func argField(a lang.Value, key string) (lang.Value, bool) {
	for _, kv := range a.Map {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return lang.Value{}, false
}

// argTemplate is v as a template: plain text compiles to one without `{{`.
func argTemplate(v lang.Value) *lang.Template {
	if v.Template != nil {
		return v.Template
	}
	t, _ := lang.CompileTemplate(v.Scalar, v.Pos)
	return t
}

// argStrings is v as a list of strings: a list's items, one scalar, or none for null.
func argStrings(v lang.Value) []string {
	if v.Kind == lang.KindList {
		var out []string
		for _, x := range v.List {
			out = append(out, x.Scalar)
		}
		return out
	}
	if v.Kind == lang.KindNull {
		return nil
	}
	return []string{v.Scalar}
}
