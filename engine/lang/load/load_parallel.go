package load

import (
	"fmt"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// Branches of a parallel stage are agent (the default), action or pipeline stages
// without transitions of their own: the parallel stage's join decides.
var (
	branchTypes = []string{string(lang.StageAgent), string(lang.StageAction), string(lang.StagePipeline)}
	branchKeys  = map[lang.StageType][]string{
		lang.StageAgent:    {"agent", "action", "continue_session", "condition", "timeout", "config", "context", "outputs_schema"},
		lang.StageAction:   {"action", "config", "condition"},
		lang.StagePipeline: {"pipeline", "context", "condition", "timeout"},
	}
	allBranchKeys = func() []string {
		out := append([]string{}, stageCommonKeys...)
		for _, t := range branchTypes {
			for _, k := range branchKeys[lang.StageType(t)] {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
		return out
	}()
)

// parallel loads the keys of a parallel stage: its branches, the join, and where to go
// when a branch rejects.
func (sl *stageLoader) parallel(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["branches"]; ok {
		if items, ok := sl.items(e.val, "branches"); ok {
			if len(items) == 0 {
				sl.errorf(e.val, kindValue, "%q of %s must list at least one branch", "branches", where)
			}
			for _, b := range items {
				if br := sl.branch(b, where); br != nil {
					s.Branches = append(s.Branches, br)
				}
			}
		}
	} else {
		sl.errorf(n, kindKey, "missing required key %q in %s", "branches", where)
	}
	s.Join = lang.JoinAll
	if e, ok := f["join"]; ok {
		sl.join(e, s, len(s.Branches))
	}
	if e, ok := f["on_any_reject"]; ok {
		s.OnAnyReject = sl.rule(e, where, loopRuleKeys)
	}
}

// join reads `join:`: "all", "any" or a number of branches between 1 and their count.
func (sl *stageLoader) join(e entry, s *lang.Stage, branches int) {
	v := e.val
	if v.Kind == yaml.ScalarNode && v.Tag == "!!int" {
		n, ok := sl.integer(e, 1)
		if !ok {
			return
		}
		if branches > 0 && n > branches {
			sl.errorf(v, kindValue, "%q must be at most the number of branches (%d), not %d", "join", branches, n)
			return
		}
		s.Join, s.JoinCount = strconv.Itoa(n), n
		return
	}
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		sl.errorf(v, kindType, "%q must be %q, %q or a number of branches, not %s", "join", lang.JoinAll, lang.JoinAny, describe(v))
		return
	}
	switch v.Value {
	case lang.JoinAll, lang.JoinAny:
		s.Join = v.Value
	default:
		if sug := lang.Suggest(v.Value, []string{lang.JoinAll, lang.JoinAny}); sug != "" {
			sl.errorf(v, kindValue, "%q must be %q, %q or a number of branches, not %q; did you mean %q?", "join", lang.JoinAll, lang.JoinAny, v.Value, sug)
		} else {
			sl.errorf(v, kindValue, "%q must be %q, %q or a number of branches, not %q", "join", lang.JoinAll, lang.JoinAny, v.Value)
		}
	}
}

// branch loads one item of `branches:`.
func (sl *stageLoader) branch(n *yaml.Node, parent string) *lang.Stage {
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "items of %q must be mappings, not %s", "branches", describe(n))
		return nil
	}
	b := &lang.Stage{Pos: sl.pos(n), Type: lang.StageAgent}
	ok := sl.id(n, b, false)
	where := "a branch of " + parent
	if ok {
		where = fmt.Sprintf("branch %q of %s", b.ID, parent)
	}
	if te, found := lookupKey(n, "type"); found {
		t, tok := sl.str(te)
		if !tok {
			return nil
		}
		if !slices.Contains(branchTypes, t) {
			if sug := lang.Suggest(t, branchTypes); sug != "" {
				sl.errorf(te.val, kindValue, "a branch's type must be one of %s, not %q; did you mean %q?", lang.QuoteList(branchTypes), t, sug)
			} else {
				sl.errorf(te.val, kindValue, "a branch's type must be one of %s, not %q", lang.QuoteList(branchTypes), t)
			}
			return nil
		}
		b.Type = lang.StageType(t)
	}
	f := sl.typedFields(n, where, string(b.Type), branchKeys[b.Type], allBranchKeys)
	b.ValuePos = sl.valuePositions(f)
	sl.common(f, b, where)
	switch b.Type {
	case lang.StageAgent:
		sl.agentKeys(n, f, b, where)
	case lang.StageAction:
		actionLoader{sl}.action(n, f, b, where)
	case lang.StagePipeline:
		sl.pipelineStage(n, f, b, where)
	}
	if !ok {
		return nil
	}
	return b
}
