package load

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// terminalTargets are the transition targets that end a run; stage ids may not take them.
var terminalTargets = []string{lang.TargetComplete, lang.TargetFail, lang.TargetCancel, lang.TargetEscalate}

// reservedIDs are the stage ids the language keeps for transition targets.
var reservedIDs = terminalTargets

// stageCommonKeys are the keys of every stage; stageKeys those of each type.
var (
	stageCommonKeys = []string{"id", "type", "description"}
	verdictKeys     = []string{"on_followup", "on_revise", "on_reject", "on_approve", "on_failed"}
	stageKeys       = map[lang.StageType][]string{
		lang.StageAgent: append([]string{"agent", "action", "continue_session", "condition", "skip_to", "timeout",
			"on_timeout", "on_complete", "on_error", "config", "context", "outputs_schema"}, verdictKeys...),
		lang.StageGate:  {"conditions", "any_of", "on_pass", "on_fail", "timeout", "on_timeout"},
		lang.StageHuman: {"wait_for", "from", "count", "notify", "auto_assign", "dismiss_stale", "pattern", "label", "condition", "skip_to", "timeout", "on_timeout", "on_complete"},
		lang.StageParallel: {"join", "branches", "condition", "skip_to", "timeout", "on_timeout", "on_complete",
			"on_any_reject"},
		lang.StageDelay:    {"duration", "poll", "on_complete"},
		lang.StageAction:   {"action", "config", "condition", "skip_to", "on_success", "on_failure", "on_conflict", "on_ci_failure"},
		lang.StageWebhook:  {"request", "expect", "condition", "skip_to", "timeout", "on_timeout", "on_success", "on_failure", "on_error"},
		lang.StagePipeline: {"pipeline", "context", "condition", "skip_to", "timeout", "on_timeout", "on_complete", "on_error"},
	}
	stageTypeNames = func() []string {
		out := make([]string, len(lang.StageTypes))
		for i, t := range lang.StageTypes {
			out[i] = string(t)
		}
		return out
	}()
	allStageKeys = func() []string {
		out := append([]string{}, stageCommonKeys...)
		for _, t := range lang.StageTypes {
			for _, k := range stageKeys[t] {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
		return out
	}()
)

// stageLoader loads the stages of one pipeline.
type stageLoader struct {
	*loader
	pipeline string
	ids      map[string]*yaml.Node // stage id value nodes, for references
	taken    map[string]*yaml.Node // stage and branch ids, for duplicates
	order    []string
	refs     []transition
}

// transition is a reference to a stage, resolved once all ids are known. special are
// the words it may hold besides stage ids and terminal targets ("current", "extend").
type transition struct {
	node    *yaml.Node
	target  *string
	special []string
}

// stages loads `stages:`, filling the transitions left out with their defaults.
func (sl *stageLoader) stages(e entry) []*lang.Stage {
	items, ok := sl.items(e.val, "stages")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		sl.errorf(e.val, kindValue, "%q must list at least one stage", "stages")
		return nil
	}
	var out []*lang.Stage
	for _, n := range items {
		if sl.full() {
			break
		}
		if s := sl.stage(n); s != nil {
			out = append(out, s)
		}
	}
	for i, s := range out {
		next := lang.TargetComplete
		if i+1 < len(out) {
			next = out[i+1].ID
		}
		fill := func(t *string) {
			if *t == "" {
				*t = next
			}
		}
		switch s.Type {
		case lang.StageGate:
			fill(&s.OnPass)
		case lang.StageAction, lang.StageWebhook:
			fill(&s.OnSuccess)
		default:
			fill(&s.OnComplete)
		}
		if s.Condition != nil {
			fill(&s.SkipTo)
		}
	}
	return out
}

// stage loads one item of `stages:`; it returns nil when the stage cannot run.
func (sl *stageLoader) stage(n *yaml.Node) *lang.Stage {
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "items of %q must be mappings, not %s", "stages", describe(n))
		return nil
	}
	s := &lang.Stage{Pos: sl.pos(n)}
	ok := sl.id(n, s, true)
	where := "a stage"
	if ok {
		where = fmt.Sprintf("stage %q", s.ID)
	}
	te, found := lookupKey(n, "type")
	if !found {
		sl.errorf(n, kindKey, "missing required key %q in %s; expected one of %s", "type", where, lang.QuoteList(stageTypeNames))
		return nil
	}
	t, tok := sl.str(te)
	if !tok {
		return nil
	}
	s.Type = lang.StageType(t)
	own, known := stageKeys[s.Type]
	if !known {
		// The other keys of a stage depend on its type: checking them would only add noise.
		if sug := lang.Suggest(t, stageTypeNames); sug != "" {
			sl.errorf(te.val, kindValue, "unknown stage type %q; did you mean %q?", t, sug)
		} else {
			sl.errorf(te.val, kindValue, "unknown stage type %q; expected one of %s", t, lang.QuoteList(stageTypeNames))
		}
		return nil
	}
	f := sl.typedFields(n, where, t, own, allStageKeys)
	s.ValuePos = sl.valuePositions(f)
	sl.common(f, s, where)
	switch s.Type {
	case lang.StageAgent:
		sl.agentStage(n, f, s, where)
	case lang.StageGate:
		gateLoader{sl}.gate(n, f, s, where)
	case lang.StageHuman:
		sl.human(n, f, s, where)
	case lang.StageParallel:
		sl.parallel(n, f, s, where)
	case lang.StageDelay:
		sl.delay(n, f, s, where)
	case lang.StageAction:
		actionLoader{sl}.action(n, f, s, where)
	case lang.StageWebhook:
		webhookLoader{sl}.webhook(n, f, s, where)
	case lang.StagePipeline:
		sl.pipelineStage(n, f, s, where)
	}
	if !ok {
		return nil
	}
	return s
}

// typedFields returns the keys of stage (or branch) n, reporting unknown keys and keys
// that belong to another type than t.
func (sl *stageLoader) typedFields(n *yaml.Node, where, t string, own, all []string) map[string]entry {
	f := sl.fields(n, "stage", section{where: where, known: all})
	for k, e := range f {
		if slices.Contains(stageCommonKeys, k) || slices.Contains(own, k) {
			continue
		}
		mine := append(append([]string{}, stageCommonKeys...), own...)
		if sug := lang.Suggest(k, mine); sug != "" {
			sl.errorf(e.key, kindKey, "key %q does not apply to a stage of type %q; did you mean %q?", k, t, sug)
		} else {
			sl.errorf(e.key, kindKey, "key %q does not apply to a stage of type %q", k, t)
		}
		delete(f, k)
	}
	return f
}

// common loads the keys several stage types share.
func (sl *stageLoader) common(f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["description"]; ok {
		s.Description, _ = sl.str(e)
	}
	if e, ok := f["condition"]; ok {
		s.Condition = sl.predicate(e.val, 0)
	}
	if e, ok := f["skip_to"]; ok {
		sl.target(e, &s.SkipTo)
		if _, cond := f["condition"]; !cond {
			sl.errorf(e.key, kindKey, "%q in %s needs %q: the stage is skipped only when its condition does not hold", "skip_to", where, "condition")
		}
	}
	if e, ok := f["timeout"]; ok {
		s.Timeout, _ = sl.duration(e)
	}
	if e, ok := f["on_timeout"]; ok {
		s.OnTimeout = sl.rule(e, where, onTimeoutKeys)
		if _, ok := f["timeout"]; !ok {
			sl.errorf(e.key, kindKey, "%q in %s needs %q: how long to wait", "on_timeout", where, "timeout")
		}
	}
	if e, ok := f["on_complete"]; ok {
		sl.target(e, &s.OnComplete)
	}
	if e, ok := f["on_error"]; ok {
		s.OnError = sl.errorPolicy(e, where)
	}
	if e, ok := f["context"]; ok {
		s.Context = sl.keyValues(e, "context of "+where)
	}
}

// id reads and checks the id of a stage or branch, remembering it for duplicates and,
// for a stage, for references.
func (sl *stageLoader) id(n *yaml.Node, s *lang.Stage, stage bool) bool {
	e, found := lookupKey(n, "id")
	if !found {
		what := "a stage"
		if !stage {
			what = "a branch"
		}
		sl.errorf(n, kindKey, "missing required key %q in %s of pipeline %q", "id", what, sl.pipeline)
		return false
	}
	id, ok := sl.str(e)
	if !ok {
		return false
	}
	s.ID = id
	switch {
	case slices.Contains(reservedIDs, id):
		sl.errorf(e.val, kindID, "stage id %q is reserved for a transition target; choose another", id)
	case !validID().MatchString(id):
		sl.errorf(e.val, kindID, "invalid stage id %q; use lowercase letters, digits, %q and %q, starting with a letter or digit",
			id, "-", "_")
	}
	if prev, dup := sl.taken[id]; dup {
		sl.errorf(e.val, kindID, "stage id %q is duplicated in pipeline %q; previously defined at %s",
			id, sl.pipeline, sl.pos(prev))
		return true
	}
	sl.taken[id] = e.val
	if stage {
		sl.ids[id] = e.val
		sl.order = append(sl.order, id)
	}
	return true
}

// target reads a transition target into dst and queues it for resolution.
func (sl *stageLoader) target(e entry, dst *string, special ...string) {
	if t, ok := sl.str(e); ok {
		*dst = t
		sl.refs = append(sl.refs, transition{node: e.val, target: dst, special: special})
	}
}

// resolve checks every queued transition target against the pipeline's stage ids.
func (sl *stageLoader) resolve() {
	for _, r := range sl.refs {
		if sl.full() {
			return
		}
		t := *r.target
		if slices.Contains(terminalTargets, t) || slices.Contains(r.special, t) || sl.ids[t] != nil {
			continue
		}
		if _, branch := sl.taken[t]; branch {
			sl.errorf(r.node, kindRef, "%q is a branch of a parallel stage in pipeline %q, not a stage; transitions go to stages", t, sl.pipeline)
			continue
		}
		candidates := append(append(append([]string{}, sl.order...), terminalTargets...), r.special...)
		if s := lang.Suggest(t, candidates); s != "" {
			sl.errorf(r.node, kindRef, "stage %q not found in pipeline %q; did you mean %q?", t, sl.pipeline, s)
		} else {
			sl.errorf(r.node, kindRef, "stage %q not found in pipeline %q; expected a stage id or one of %s",
				t, sl.pipeline, lang.QuoteList(append(append([]string{}, terminalTargets...), r.special...)))
		}
	}
}

// valuePositions maps each key of a mapping to the position of its value.
func (sl *stageLoader) valuePositions(f map[string]entry) map[string]lang.Pos {
	out := make(map[string]lang.Pos, len(f))
	for k, e := range f {
		out[k] = sl.pos(e.val)
	}
	return out
}
