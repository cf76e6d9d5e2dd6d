package engine

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Stage ids the language keeps for terminal targets.
var reservedIDs = []string{TargetComplete, TargetFail, "cancel", "escalate"}

// Stage types of the full language that the engine does not execute yet.
var unsupportedStageTypes = []string{"agent", "human", "parallel", "delay", "webhook", "pipeline"}

var (
	stageCommonKeys = []string{"id", "type"}
	stageGateKeys   = []string{"conditions", "on_pass", "on_fail"}
	stageActionKeys = []string{"action", "config", "on_success", "on_failure"}
	// keys of the full language every stage type may carry, not executed yet
	stageUnsupportedKeys = []string{"description", "timeout", "on_timeout", "skip_to", "condition",
		"on_complete", "on_error", "on_conflict", "on_ci_failure", "any_of"}
)

// transition is a stage's reference to another stage, resolved once all ids are known.
type transition struct {
	node   *yaml.Node
	target *string
}

// stageLoader loads the stages of one pipeline.
type stageLoader struct {
	*loader
	pipeline string
	ids      map[string]*yaml.Node // id value nodes, for duplicates and references
	order    []string
	refs     []transition
}

// stages loads `stages:` of pipeline name, resolving transitions and their defaults.
func (l *loader) stages(e entry, name string) []*Stage {
	items, ok := l.items(e.val, "stages")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		l.errorf(e.val, kindValue, "%q must list at least one stage", "stages")
		return nil
	}
	sl := &stageLoader{loader: l, pipeline: name, ids: map[string]*yaml.Node{}}
	var out []*Stage
	for _, n := range items {
		if s := sl.stage(n); s != nil {
			out = append(out, s)
		}
	}
	sl.resolve()
	for i, s := range out {
		next := TargetComplete
		if i+1 < len(out) {
			next = out[i+1].ID
		}
		switch s.Type {
		case StageGate:
			if s.OnPass == "" {
				s.OnPass = next
			}
		case StageAction:
			if s.OnSuccess == "" {
				s.OnSuccess = next
			}
		}
	}
	return out
}

// stage loads one item of `stages:`; it returns nil when the stage cannot run.
func (sl *stageLoader) stage(n *yaml.Node) *Stage {
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "items of %q must be mappings, not %s", "stages", describe(n))
		return nil
	}
	s := &Stage{Pos: sl.pos(n)}
	ok := sl.id(n, s)
	where := "a stage"
	if ok {
		where = fmt.Sprintf("stage %q", s.ID)
	}
	te, found := lookupKey(n, "type")
	if !found {
		sl.errorf(n, kindKey, "missing required key %q in %s; expected one of %q, %q", "type", where, StageGate, StageAction)
		return nil
	}
	t, tok := sl.str(te)
	if !tok {
		return nil
	}
	s.Type = StageType(t)
	var own []string
	switch s.Type {
	case StageGate:
		own = stageGateKeys
	case StageAction:
		own = stageActionKeys
	default:
		// The other keys of a stage depend on its type: checking them would only add noise.
		if loadContains(unsupportedStageTypes, t) {
			sl.errorf(te.val, kindUnsupported, "not supported yet: stage type %q", t)
		} else if sug := suggest(t, []string{string(StageGate), string(StageAction)}); sug != "" {
			sl.errorf(te.val, kindValue, "unknown stage type %q; did you mean %q?", t, sug)
		} else {
			sl.errorf(te.val, kindValue, "unknown stage type %q; expected one of %q, %q", t, StageGate, StageAction)
		}
		return nil
	}
	known := append(append(append([]string{}, stageCommonKeys...), stageGateKeys...), stageActionKeys...)
	f := sl.fields(n, "stage", section{where: where, known: known, unsupported: stageUnsupportedKeys})
	for k, e := range f {
		if !loadContains(stageCommonKeys, k) && !loadContains(own, k) {
			sl.errorf(e.key, kindKey, "key %q does not apply to a stage of type %q", k, t)
			delete(f, k)
		}
	}
	if s.Type == StageGate {
		sl.gate(n, f, s, where)
	} else {
		sl.action(n, f, s, where)
	}
	if !ok {
		return nil
	}
	return s
}

// id reads and checks the stage's id, remembering it for references.
func (sl *stageLoader) id(n *yaml.Node, s *Stage) bool {
	e, found := lookupKey(n, "id")
	if !found {
		sl.errorf(n, kindKey, "missing required key %q in a stage of pipeline %q", "id", sl.pipeline)
		return false
	}
	id, ok := sl.str(e)
	if !ok {
		return false
	}
	s.ID = id
	switch {
	case loadContains(reservedIDs, id):
		sl.errorf(e.val, kindID, "stage id %q is reserved for a transition target; choose another", id)
	case !validID.MatchString(id):
		sl.errorf(e.val, kindID, "invalid stage id %q; use lowercase letters, digits, %q and %q, starting with a letter or digit",
			id, "-", "_")
	}
	if prev, dup := sl.ids[id]; dup {
		sl.errorf(e.val, kindID, "stage id %q is duplicated in pipeline %q; previously defined at line:%d,col:%d",
			id, sl.pipeline, prev.Line, prev.Column)
		return true
	}
	sl.ids[id] = e.val
	sl.order = append(sl.order, id)
	return true
}

// target reads a transition target into dst and queues it for resolution.
func (sl *stageLoader) target(e entry, dst *string) {
	if t, ok := sl.str(e); ok {
		*dst = t
		sl.refs = append(sl.refs, transition{node: e.val, target: dst})
	}
}

// resolve checks every queued transition target against the pipeline's stage ids.
func (sl *stageLoader) resolve() {
	for _, r := range sl.refs {
		t := *r.target
		if t == TargetComplete || t == TargetFail || sl.ids[t] != nil {
			continue
		}
		if loadContains(reservedIDs, t) {
			sl.errorf(r.node, kindUnsupported, "not supported yet: transition target %q", t)
			continue
		}
		candidates := append(append([]string{}, sl.order...), TargetComplete, TargetFail)
		if s := suggest(t, candidates); s != "" {
			sl.errorf(r.node, kindRef, "stage %q not found in pipeline %q; did you mean %q?", t, sl.pipeline, s)
		} else {
			sl.errorf(r.node, kindRef, "stage %q not found in pipeline %q; expected a stage id, %q or %q",
				t, sl.pipeline, TargetComplete, TargetFail)
		}
	}
}
