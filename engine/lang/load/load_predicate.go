package load

import (
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// maxPredicateDepth bounds the nesting of `any` and `all` in a condition.
const maxPredicateDepth = 16

var predicateKeys = []string{"any", "all", "labels_include", "paths_match"}

// predicate reads a stage or branch `condition:`: an expression written as a string,
// or a mapping of tests that must all hold —
//
//	condition:
//	  any:
//	    - labels_include: security
//	    - paths_match: ["src/**/auth/**"]
//
// — where `any` and `all` take lists of such conditions, `labels_include` a label or
// a list (every one present) and `paths_match` a glob or a list (some changed file
// matches one).
func (l *loader) predicate(n *yaml.Node, depth int) *lang.Predicate {
	n = deref(n)
	p := &lang.Predicate{Pos: l.pos(n)}
	if depth > maxPredicateDepth {
		l.errorf(n, kindValue, "conditions nest more than %d levels deep", maxPredicateDepth)
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			break
		}
		p.Expr = l.expr(entry{key: &yaml.Node{Value: "condition"}, val: n})
		if p.Expr == nil {
			return nil
		}
		return p
	case yaml.MappingNode:
		f := l.fields(n, "condition", section{where: "a condition", known: predicateKeys})
		if len(n.Content) == 0 {
			l.errorf(n, kindValue, "a condition must not be empty; it takes %s or an expression", lang.QuoteList(predicateKeys))
			return nil
		}
		for _, k := range []string{"any", "all"} {
			e, ok := f[k]
			if !ok {
				continue
			}
			items, ok := l.items(e.val, k)
			if !ok {
				continue
			}
			if len(items) == 0 {
				l.errorf(e.val, kindValue, "%q must list at least one condition", k)
			}
			for _, item := range items {
				if c := l.predicate(item, depth+1); c != nil {
					if k == "any" {
						p.Any = append(p.Any, *c)
					} else {
						p.All = append(p.All, *c)
					}
				}
			}
		}
		if e, ok := f["labels_include"]; ok {
			labels, _ := l.strs(e)
			p.LabelsInclude = l.nonEmpty(e, labels)
		}
		if e, ok := f["paths_match"]; ok {
			globs, _ := l.strs(e)
			for _, g := range l.nonEmpty(e, globs) {
				if err := lang.ValidGlob(g); err != nil {
					l.errorf(e.val, kindValue, "%q holds a malformed glob %q: %v", "paths_match", g, err)
					continue
				}
				p.PathsMatch = append(p.PathsMatch, g)
			}
		}
		return p
	}
	l.errorf(n, kindType, "%q must be an expression or a mapping with %s, not %s", "condition", lang.QuoteList(predicateKeys), describe(n))
	return nil
}
