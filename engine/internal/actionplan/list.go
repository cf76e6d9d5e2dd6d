package actionplan

import (
	"fmt"
	"github.com/org/pipeline-action/engine/internal/variables"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/lang"
)

// Item plans one item of a list.
func Item(e *core.Eval, run *model.Run, item lang.ActionItem, eff model.Effect, env lang.Env) core.PlannedAction {
	a := item.Args
	switch item.Action {
	case lang.ActionCloseIssue:
		if a.Kind == lang.KindNull {
			return core.PlannedAction{Done: "no issue to close (none given)"}
		}
		return closeIssue(e, eff, argTemplate(a), env)
	case lang.ActionComment:
		msg, target := a, lang.Value{}
		if a.Kind == lang.KindMap {
			msg, _ = argField(a, "message")
			target, _ = argField(a, "target")
		}
		if t := strings.TrimSpace(target.Scalar); target.Kind != lang.KindNull && t != "" {
			if why := commentTarget(e, run, t, &eff); why != "" {
				return core.PlannedAction{Err: why}
			}
		}
		body, err := render.Text(argTemplate(msg), env)
		if err != nil {
			return core.PlannedAction{Err: err.Error()}
		}
		eff.Kind = model.EffectComment
		return planComment(e, run, eff, body)
	case lang.ActionLabel:
		return Label(e, eff, argStrings(a), nil)
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
		return Notify(e, run, eff, argTemplate(target), m, env)
	case lang.ActionCreateIssue:
		title, _ := argField(a, "title")
		body, hasBody := argField(a, "body")
		labels, _ := argField(a, "labels")
		var bt *lang.Template
		if hasBody && body.Kind != lang.KindNull {
			bt = argTemplate(body)
		}
		return planCreateIssue(e, run, eff, argTemplate(title), bt, "", argStrings(labels), env)
	case lang.ActionRequestReviewers:
		if a.Kind != lang.KindMap {
			return planRequestReviewers(e, eff, argStrings(a), nil, "")
		}
		rs, _ := argField(a, "reviewers")
		ts, _ := argField(a, "teams")
		g, _ := argField(a, "group")
		return planRequestReviewers(e, eff, argStrings(rs), argStrings(ts), g.Scalar)
	case lang.ActionAssign:
		if a.Kind != lang.KindMap {
			return planAssign(e, eff, argStrings(a), "")
		}
		as, _ := argField(a, "assignees")
		g, _ := argField(a, "group")
		return planAssign(e, eff, argStrings(as), g.Scalar)
	case lang.ActionSetVariable, lang.ActionSetShared:
		name, _ := argField(a, "name")
		value, _ := argField(a, "value")
		if target, ok := enableTarget(a); ok {
			return dormant.PlanSet(e.Cfg, e.St, target, value, env)
		}
		done, err := variables.Set(e.St, run, item.Action, name.Scalar, value, env)
		return core.PlannedAction{Done: done, Err: err}
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
