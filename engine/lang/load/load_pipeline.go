package load

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load/internal/nodedigest"
)

var (
	scopes       = []string{lang.ScopeSinglePR, lang.ScopeIssue, lang.ScopeMultiPR}
	pipelineKeys = append([]string{"description", "display_name", "priority", "scope", "trigger", "on_events",
		"context", "variables", "stages", "on_complete", "on_error", "keep_up_to_date"}, dormantKeyNames...)
)

// pipeline loads one entry of `pipelines:`.
func (l *loader) pipeline(e entry) *lang.Pipeline {
	name := e.key.Value
	if !validID().MatchString(name) {
		l.errorf(e.key, kindID, "invalid pipeline name %q; use lowercase letters, digits, %q and %q, starting with a letter or digit",
			name, "-", "_")
	}
	p := &lang.Pipeline{Name: name, Pos: l.pos(e.key), Scope: lang.ScopeSinglePR, Digest: nodedigest.Of(e.val)}
	l.exprs.TakeStageRefs() // what came before names no stage of this pipeline
	where := fmt.Sprintf("pipeline %q", name)
	f := l.fields(e.val, name, section{where: where, known: pipelineKeys})
	if e.val.Kind != yaml.MappingNode {
		return nil
	}
	if d, ok := f["description"]; ok {
		p.Description, _ = l.str(d)
	}
	if d, ok := f["display_name"]; ok {
		p.DisplayName, _ = l.str(d)
	}
	p.Priority = lang.DefaultPriority
	if v, ok := f["priority"]; ok {
		p.Priority, _ = l.integer(v, -1000000)
	}
	if v, ok := f["scope"]; ok {
		if s, ok := l.enum(v, scopes); ok {
			p.Scope = s
		}
	}
	if t, ok := f["trigger"]; ok {
		p.HasTrigger = true
		p.Trigger = l.trigger(t, name)
	}
	if v, ok := f["context"]; ok {
		p.Context = l.keyValues(v, "context of "+where)
	}
	if v, ok := f["variables"]; ok {
		p.Variables = l.keyValues(v, "variables of "+where)
	}
	l.dormantKeys(f, p, where)
	if v, ok := f["keep_up_to_date"]; ok {
		p.KeepUpToDate = l.keepUpToDate(v, where)
	}
	if v, ok := f["on_complete"]; ok {
		p.OnComplete = l.actionItems(v, where)
	}
	if v, ok := f["on_error"]; ok {
		p.OnError = l.actionItems(v, where)
	}
	sl := &stageLoader{loader: l, pipeline: name, ids: map[string]*yaml.Node{}, taken: map[string]*yaml.Node{}}
	if s, ok := f["stages"]; ok {
		p.Stages = sl.stages(s)
	} else {
		l.errorf(e.val, kindKey, "missing required key %q in %s", "stages", where)
	}
	if r, ok := f["on_events"]; ok {
		p.OnEvents = sl.reactions(r)
	}
	sl.resolve()
	p.StageRefs = l.exprs.TakeStageRefs() // checked by checkStageRefs
	return p
}

// keepUpToDate loads `keep_up_to_date:`: true (merge), false, or a mapping naming the
// update_method.
func (l *loader) keepUpToDate(e entry, where string) *lang.KeepUpToDate {
	k := &lang.KeepUpToDate{Method: lang.UpdateMerge, Pos: l.pos(e.key)}
	if e.val.Kind != yaml.MappingNode {
		if on, ok := l.boolean(e); !ok || !on {
			return nil
		}
		return k
	}
	f := l.fields(e.val, "keep_up_to_date", section{where: "keep_up_to_date of " + where, known: []string{"update_method"}})
	if m, ok := f["update_method"]; ok {
		if v, ok := l.enum(m, updateMethods); ok {
			k.Method = v
		}
	}
	return k
}
