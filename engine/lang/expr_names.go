package lang

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/parser"
)

// ExprRoots are the names an expression may start from, sorted. What lies below them
// (the event payload under "trigger", the run's "context", a stage's "outputs") is only
// known when the run is, so member names are not checked at load.
var ExprRoots = []string{"branches", "context", "github", "outputs", "run", "shared", "stages", "subject", "trigger", "variables"}

// ExprFilters are the filters an expression may apply with `value | name` (or call as
// `name(value)`), sorted. Each is a pure function of its argument and the Env.
var ExprFilters = []string{"agent_for_branch", "has_label", "linked_issue"}

// ClockKey is where an Env, or its "github" root, holds the time of the event being
// evaluated (a time.Time), which now() gives. It is no name an expression can write.
const ClockKey = "$clock"

// exprFunctions are the functions of the language besides expr-lang's builtins and the
// filters: now() replaces the builtin that reads the machine's clock.
var exprFunctions = []string{"now"}

// compileEnv types the roots for the compiler: mappings (and "branches" a list) whose
// members are only known at run time.
var compileEnv = func() map[string]any {
	env := map[string]any{}
	for _, r := range ExprRoots {
		env[r] = map[string]any{}
	}
	env["branches"] = []any{}
	var filter func(any) any
	for _, f := range ExprFilters {
		env[f] = filter
	}
	var clock func() time.Time
	env["now"] = clock
	return env
}()

// nameError is an unknown name, at rune offset from of the rewritten text.
type nameError struct {
	from int
	msg  string
}

// checkNames reports the first unknown root, filter or function of text, parsed as
// tree, or nil when all are known.
func checkNames(text string, tree *parser.Tree) *nameError {
	callees := map[ast.Node]bool{}
	declared := map[string]bool{}
	var calls []*ast.CallNode
	var idents []*ast.IdentifierNode
	ast.Walk(&tree.Node, nodeFunc(func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CallNode:
			callees[n.Callee] = true
			calls = append(calls, n)
		case *ast.VariableDeclaratorNode:
			declared[n.Name] = true
		case *ast.IdentifierNode:
			idents = append(idents, n)
		}
	}))
	var errs []*nameError
	for _, c := range calls {
		id, ok := c.Callee.(*ast.IdentifierNode)
		if !ok || slices.Contains(ExprFilters, id.Value) || slices.Contains(exprFunctions, id.Value) || declared[id.Value] {
			continue
		}
		word := "function"
		if isPiped(text, id.Location().From) {
			word = "filter"
		}
		msg := fmt.Sprintf("unknown %s %q; known filters: %s", word, id.Value, QuoteList(ExprFilters))
		if s := Suggest(id.Value, append(slices.Clone(ExprFilters), builtin.Names...)); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		errs = append(errs, &nameError{from: id.Location().From, msg: msg})
	}
	for _, id := range idents {
		if callees[id] || declared[id.Value] || id.Value == "null" || id.Value == "$env" ||
			slices.Contains(ExprRoots, id.Value) || slices.Contains(ExprFilters, id.Value) {
			continue
		}
		msg := fmt.Sprintf("unknown name %q in expression; known names: %s", id.Value, QuoteList(ExprRoots))
		if s := Suggest(id.Value, ExprRoots); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		errs = append(errs, &nameError{from: id.Location().From, msg: msg})
	}
	if len(errs) == 0 {
		return nil
	}
	first := errs[0]
	for _, e := range errs[1:] {
		if e.from < first.from {
			first = e
		}
	}
	return first
}

// exprRoots returns the known roots the expression parsed as tree reads, sorted and
// once each.
func exprRoots(tree *parser.Tree) []string {
	var out []string
	ast.Walk(&tree.Node, nodeFunc(func(n ast.Node) {
		if id, ok := n.(*ast.IdentifierNode); ok && slices.Contains(ExprRoots, id.Value) && !slices.Contains(out, id.Value) {
			out = append(out, id.Value)
		}
	}))
	slices.Sort(out)
	return out
}

// stageRef is a stage an expression names, at rune offset off of its text.
type stageRef struct {
	id  string
	off int
}

// exprStageRefs returns the stages the expression parsed as tree names with a constant
// member of the root "stages" (`stages.review`, `stages["review"]`), in order, at the
// offset of the root. A name computed at run time (`stages[context.id]`) is not known here.
func exprStageRefs(tree *parser.Tree) []stageRef {
	declared := map[string]bool{}
	var out []stageRef
	ast.Walk(&tree.Node, nodeFunc(func(n ast.Node) {
		switch n := n.(type) {
		case *ast.VariableDeclaratorNode:
			declared[n.Name] = true
		case *ast.MemberNode:
			root, ok := n.Node.(*ast.IdentifierNode)
			prop, isConst := n.Property.(*ast.StringNode)
			if ok && isConst && root.Value == "stages" {
				out = append(out, stageRef{id: prop.Value, off: root.Location().From})
			}
		}
	}))
	if declared["stages"] {
		return nil // the name is the expression's own, not the root
	}
	return out
}

// isPiped reports whether the name at rune offset from follows a pipe `|`.
func isPiped(text string, from int) bool {
	rs := []rune(text)
	i := from - 1
	for i >= 0 && (rs[i] == ' ' || rs[i] == '\t' || rs[i] == '\n' || rs[i] == '\r') {
		i--
	}
	return i >= 0 && rs[i] == '|' && (i == 0 || rs[i-1] != '|')
}

// nodeFunc adapts a function to ast.Visitor.
type nodeFunc func(ast.Node)

func (v nodeFunc) Visit(n *ast.Node) { v(*n) }

// nullPatch makes the reference's `null` expr-lang's nil.
type nullPatch struct{}

func (nullPatch) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok && id.Value == "null" {
		ast.Patch(n, &ast.NilNode{})
	}
}

// runEnv returns env with every root present and the filters bound to env.
func runEnv(env Env) map[string]any {
	out := make(map[string]any, len(env)+len(ExprRoots)+len(ExprFilters))
	for _, r := range ExprRoots {
		out[r] = map[string]any{}
	}
	out["branches"] = []any{}
	for k, v := range env {
		if v != nil {
			out[k] = v
		}
	}
	out["linked_issue"] = func(n any) any { return linkedIssue(env, n) }
	out["agent_for_branch"] = func(b any) any { return agentForBranch(env, b) }
	out["has_label"] = func(name any) any { return hasLabelEnv(env, name) }
	out["now"] = func() time.Time { return clockOf(env) }
	return out
}

// clockOf is the time of the event env is evaluated for. Where no event's time is known,
// now() fails the expression rather than read the machine's clock: a merge window that
// depended on where the action runs would hold on one machine and not another.
func clockOf(env Env) time.Time {
	if t, ok := env[ClockKey].(time.Time); ok {
		return t
	}
	if gh, ok := env["github"].(map[string]any); ok {
		if t, ok := gh[ClockKey].(time.Time); ok {
			return t
		}
	}
	panic("now() has no event time here")
}

// hasLabelEnv is the filter `name | has_label`: whether the pull request env describes
// (github.pr.labels) carries label name, compared as GitHub compares labels (without regard
// to case: `'security' | has_label` holds on a PR labelled `Security`, where
// `'security' in github.pr.labels` does not). False when name is not a string or there is
// no pull request.
func hasLabelEnv(env Env, name any) any {
	n, ok := name.(string)
	if !ok {
		return false
	}
	var labels []string
	switch l := envLookup(env, "github", "pr", "labels").(type) {
	case []string:
		labels = l
	case []any:
		for _, x := range l {
			if s, ok := x.(string); ok {
				labels = append(labels, s)
			}
		}
	}
	for _, l := range labels {
		if SameLabel(l, n) {
			return true
		}
	}
	return false
}

// linkedIssue is the filter `pr | linked_issue`: the first issue the pull request
// links (closes), from env's github.pr.linked_issues, or null when it links none or when
// pr is not the pull request env describes (github.pr.number).
func linkedIssue(env Env, pr any) any {
	p, _ := envLookup(env, "github", "pr").(map[string]any)
	if p == nil {
		return nil
	}
	if n, ok := p["number"]; ok && RenderValue(n) != RenderValue(pr) {
		return nil
	}
	switch l := p["linked_issues"].(type) {
	case []any:
		if len(l) > 0 {
			return l[0]
		}
	case []int:
		if len(l) > 0 {
			return l[0]
		}
	}
	return nil
}

// agentForBranch is the filter `branch | agent_for_branch`: the agent whose name
// carries the branch's role prefix, the part before the first "/". An agent named
// exactly the prefix wins ("fix/x" → "fix"); else the first agent, in env's "agents"
// order, whose name starts with the prefix and "-" ("feat/issue-7" → "feat-dev"). A
// branch without "/" or without a matching agent gives null. env["agents"] is a list
// of names (or a mapping whose keys are the names, taken in sorted order).
func agentForBranch(env Env, branch any) any {
	b, ok := branch.(string)
	if !ok {
		return nil
	}
	prefix, _, found := strings.Cut(b, "/")
	if !found || prefix == "" {
		return nil
	}
	names := agentNames(env["agents"])
	if slices.Contains(names, prefix) {
		return prefix
	}
	for _, n := range names {
		if strings.HasPrefix(n, prefix+"-") {
			return n
		}
	}
	return nil
}

func agentNames(v any) []string {
	switch a := v.(type) {
	case []string:
		return a
	case []any:
		var out []string
		for _, x := range a {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case map[string]any:
		var out []string
		for k := range a {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// envLookup follows keys through nested mappings of env; nil when one is missing.
func envLookup(env Env, keys ...string) any {
	var cur any = map[string]any(env)
	for _, k := range keys {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}
