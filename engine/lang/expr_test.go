package lang

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exprAt is where the test expressions are written: line 4, column 12 of p.yaml.
var exprAt = Pos{File: "p.yaml", Line: 4, Col: 12}

const knownNames = `known names: "branches", "context", "github", "outputs", "run", "shared", "stages", "subject", "trigger", "variables"`

func TestCompileExprErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "unknown root", src: "contxt.pr_number",
			want: `p.yaml:4:12: unknown name "contxt" in expression; ` + knownNames + `; did you mean "context"? [expr]`},
		{name: "unknown root later in the text", src: "trigger.x && Trigger.y",
			want: `p.yaml:4:25: unknown name "Trigger" in expression; ` + knownNames + `; did you mean "trigger"? [expr]`},
		{name: "unknown root without a suggestion", src: "pull_request.number > 0",
			want: `p.yaml:4:12: unknown name "pull_request" in expression; ` + knownNames + ` [expr]`},
		{name: "columns count characters, not bytes", src: `"é" + contxt`,
			want: `p.yaml:4:18: unknown name "contxt" in expression; ` + knownNames + `; did you mean "context"? [expr]`},
		{name: "unknown filter", src: "context.pr_number | linked_isue",
			want: `p.yaml:4:32: unknown filter "linked_isue"; known filters: "agent_for_branch", "has_label", "linked_issue"; did you mean "linked_issue"? [expr]`},
		{name: "unknown filter suggests a built-in", src: "context.title | uper",
			want: `p.yaml:4:28: unknown filter "uper"; known filters: "agent_for_branch", "has_label", "linked_issue"; did you mean "upper"? [expr]`},
		{name: "unknown function", src: "linkedissue(context.pr_number)",
			want: `p.yaml:4:12: unknown function "linkedissue"; known filters: "agent_for_branch", "has_label", "linked_issue"; did you mean "linked_issue"? [expr]`},
		{name: "missing operand", src: "1 +",
			want: `p.yaml:4:15: unexpected end of expression [expr]`},
		{name: "unclosed parenthesis", src: "(context.a",
			want: `p.yaml:4:22: unexpected end of expression [expr]`},
		{name: "unexpected token", src: "context.a == == 1",
			want: `p.yaml:4:25: unexpected token operator("==") [expr]`},
		{name: "unterminated string", src: "context.a == 'x",
			want: `p.yaml:4:27: literal not terminated [expr]`},
		{name: "type error", src: "1 + 'a'",
			want: `p.yaml:4:14: invalid operation: + (mismatched types int and string) [expr]`},
		{name: "empty", src: "  ", want: `p.yaml:4:12: empty expression [expr]`},
		{name: "a later line keeps the scalar's position", src: "context.a\n  == b",
			want: `p.yaml:4:12: unknown name "b" in expression; ` + knownNames + ` [expr]`},
		{name: "error after a rewritten filter keeps its column", src: "context.a | upper == contxt",
			want: `p.yaml:4:33: unknown name "contxt" in expression; ` + knownNames + `; did you mean "context"? [expr]`},
		{name: "error after a rewritten spread keeps its column", src: "branches.*.feedback == contxt",
			want: `p.yaml:4:35: unknown name "contxt" in expression; ` + knownNames + `; did you mean "context"? [expr]`},
		{name: "braces around a condition", src: "{{ contxt.a }}",
			want: `p.yaml:4:15: unknown name "contxt" in expression; ` + knownNames + `; did you mean "context"? [expr]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := CompileExpr(tt.src, exprAt)
			require.NotNil(t, err)
			assert.Nil(t, e)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestCompileTemplateErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "unknown root", src: "PR #{{ contxt.pr_number }}",
			want: `p.yaml:4:19: unknown name "contxt" in expression; ` + knownNames + `; did you mean "context"? [expr]`},
		{name: "unknown filter", src: "{{ context.pr_number | linked_isue }}",
			want: `p.yaml:4:35: unknown filter "linked_isue"; known filters: "agent_for_branch", "has_label", "linked_issue"; did you mean "linked_issue"? [expr]`},
		{name: "syntax error in the second part", src: "{{ context.a }} and {{ 1 + }}",
			want: `p.yaml:4:38: unexpected end of expression [expr]`},
		{name: "unclosed", src: "a {{ b", want: `p.yaml:4:14: unclosed "{{" in template; end the expression with "}}" [expr]`},
		{name: "unclosed after a part", src: "{{ context.a }} {{",
			want: `p.yaml:4:28: unclosed "{{" in template; end the expression with "}}" [expr]`},
		{name: "just an opening", src: "{{ ", want: `p.yaml:4:12: unclosed "{{" in template; end the expression with "}}" [expr]`},
		{name: "empty", src: "x {{ }}", want: `p.yaml:4:14: empty "{{ }}" in template [expr]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, err := CompileTemplate(tt.src, exprAt)
			require.NotNil(t, err)
			assert.Nil(t, tpl)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// exprEnv is a run's view: the event, the context, the facts and the agents.
func exprEnv() Env {
	return Env{
		"trigger": map[string]any{"pull_request": map[string]any{"number": 42.0, "base": map[string]any{"ref": "main"}}},
		"context": map[string]any{"pr_number": 42.0, "head_branch": "feat/issue-7", "prs": []any{42.0, 43.0}, "title": "Add it"},
		"github": map[string]any{"pr": map[string]any{"number": 42, "mergeable": nil, "labels": []any{"bug"},
			"linked_issues": []any{7}}},
		"stages":   map[string]any{"review": map[string]any{"outputs": map[string]any{"verdict": "approve"}}},
		"branches": []any{map[string]any{"id": "a", "feedback": "tests"}, map[string]any{"id": "b", "feedback": "docs"}},
		"agents":   []string{"pr-review", "feat-dev", "feat-docs"},
	}
}

func TestExprEval(t *testing.T) {
	tests := []struct {
		name string
		src  string
		env  Env
		want any
	}{
		{name: "event payload", src: "trigger.pull_request.base.ref", want: "main"},
		{name: "context index", src: "context.prs[1]", want: 43.0},
		{name: "stage outputs", src: "stages.review.outputs.verdict == 'approve'", want: true},
		{name: "null is nil", src: "github.pr.mergeable != null", want: false},
		{name: "null alone", src: "null", want: nil},
		{name: "spread over branches", src: "branches.*.feedback", want: []any{"tests", "docs"}},
		{name: "spread over a slice", src: "branches[1:].*.id", want: []any{"b"}},
		{name: "spread inside a call", src: "len(branches.*.feedback)", want: 2},
		{name: "spread, no branches", src: "branches.*.feedback", env: Env{}, want: []any{}},
		{name: "nested spread", src: "context.groups.*.members.*.login",
			env: Env{"context": map[string]any{"groups": []any{
				map[string]any{"members": []any{map[string]any{"login": "a"}, map[string]any{"login": "b"}}},
				map[string]any{"members": []any{map[string]any{"login": "c"}}}}}},
			want: []any{[]any{"a", "b"}, []any{"c"}}},
		{name: "built-in through a bare pipe", src: "context.title | upper", want: "ADD IT"},
		{name: "filter with parentheses", src: "context.head_branch | agent_for_branch()", want: "feat-dev"},
		{name: "filter called", src: "agent_for_branch(context.head_branch)", want: "feat-dev"},
		{name: "or is not a pipe", src: "false || github.pr.labels[0] == 'bug'", want: true},
		{name: "a pipe inside a string is text", src: "'a | b' + '|'", want: "a | b|"},
		{name: "missing member", src: "context.nothing", want: nil},
		{name: "missing root", src: "variables", env: Env{}, want: map[string]any{}},
		{name: "variables", src: "let n = 2; n * 3", want: 6},
		{name: "braces around a condition", src: "{{ context.pr_number == 42 }}", want: true},
		{name: "has_label", src: "'bug' | has_label", want: true},
		{name: "has_label ignores case, as GitHub's labels", src: "'BUG' | has_label", want: true},
		{name: "has_label negated", src: "!('Bug' | has_label)", want: false},
		{name: "has_label of an absent label", src: "has_label('security-hold')", want: false},
		{name: "has_label of a number", src: "42 | has_label", want: false},
		{name: "has_label without a pull request", src: "'bug' | has_label", env: Env{}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, cerr := CompileExpr(tt.src, exprAt)
			require.Nil(t, cerr)
			env := tt.env
			if env == nil {
				env = exprEnv()
			}
			got, err := e.Eval(env)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestExprBool(t *testing.T) {
	e, cerr := CompileExpr("github.pr.mergeable != null", exprAt)
	require.Nil(t, cerr)
	ok, err := e.Bool(exprEnv())
	require.NoError(t, err)
	assert.False(t, ok)
	ok, err = e.Bool(Env{"github": map[string]any{"pr": map[string]any{"mergeable": true}}})
	require.NoError(t, err)
	assert.True(t, ok)

	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "a string", src: "context.title",
			want: `expression "context.title" at p.yaml:4:12 gave the string Add it, not true or false`},
		{name: "null", src: "github.pr.mergeable", want: `expression "github.pr.mergeable" at p.yaml:4:12 gave null, not true or false`},
		{name: "a run-time error", src: "context.nothing.deeper == 1",
			want: `evaluating "context.nothing.deeper == 1" at p.yaml:4:12: cannot fetch deeper from <nil>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, cerr := CompileExpr(tt.src, exprAt)
			require.Nil(t, cerr)
			_, err := e.Bool(exprEnv())
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestTemplateRender(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     string
		constant bool
	}{
		{name: "constant", src: "Pipeline completed.", want: "Pipeline completed.", constant: true},
		{name: "closing braces alone are text", src: "a }} b", want: "a }} b", constant: true},
		{name: "number without a fraction", src: "PR #{{ context.pr_number }} ready", want: "PR #42 ready"},
		{name: "two parts", src: "{{ context.title }} into {{ trigger.pull_request.base.ref }}", want: "Add it into main"},
		{name: "null renders as nothing", src: "[{{ github.pr.mergeable }}]", want: "[]"},
		{name: "a list renders as JSON", src: "{{ branches.*.feedback }}", want: `["tests","docs"]`},
		{name: "linked_issue", src: "{{ context.pr_number | linked_issue }}", want: "7"},
		{name: "agent_for_branch", src: "{{ context.head_branch | agent_for_branch }}", want: "feat-dev"},
		{name: "braces inside a string", src: "{{ '}}' + context.title }}", want: "}}Add it"},
		{name: "no spaces", src: "{{context.pr_number}}", want: "42"},
		{name: "a bool", src: "{{ context.pr_number > 1 }}", want: "true"},
		{name: "a fraction", src: "{{ 1.5 }}", want: "1.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, cerr := CompileTemplate(tt.src, exprAt)
			require.Nil(t, cerr)
			assert.Equal(t, tt.src, tpl.Src)
			assert.Equal(t, tt.constant, tpl.IsConstant())
			got, err := tpl.Render(exprEnv())
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestTemplateValue(t *testing.T) {
	tpl, cerr := CompileTemplate("{{ context.prs }}", exprAt)
	require.Nil(t, cerr)
	v, err := tpl.Value(exprEnv())
	require.NoError(t, err)
	assert.Equal(t, []any{42.0, 43.0}, v, "a lone part keeps its type")

	tpl, cerr = CompileTemplate("#{{ context.prs[0] }}", exprAt)
	require.Nil(t, cerr)
	v, err = tpl.Value(exprEnv())
	require.NoError(t, err)
	assert.Equal(t, "#42", v)

	tpl, cerr = CompileTemplate("{{ context.nothing.deeper }}", exprAt)
	require.Nil(t, cerr)
	_, err = tpl.Render(exprEnv())
	assert.EqualError(t, err, `evaluating "context.nothing.deeper" at p.yaml:4:15: cannot fetch deeper from <nil>`)
}

func TestFilters(t *testing.T) {
	pr := func(number any, linked ...any) Env {
		return Env{"github": map[string]any{"pr": map[string]any{"number": number, "linked_issues": linked}}}
	}
	t.Run("linked_issue", func(t *testing.T) {
		tests := []struct {
			name string
			env  Env
			pr   any
			want any
		}{
			{name: "first linked issue", env: pr(42, 7, 9), pr: 42.0, want: 7},
			{name: "number as text", env: pr(42, 7), pr: "42", want: 7},
			{name: "no linked issue", env: pr(42), pr: 42, want: nil},
			{name: "another pull request", env: pr(42, 7), pr: 43, want: nil},
			{name: "no pull request in the facts", env: Env{}, pr: 42, want: nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				assert.Equal(t, tt.want, linkedIssue(tt.env, tt.pr))
			})
		}
	})
	t.Run("agent_for_branch", func(t *testing.T) {
		agents := Env{"agents": []any{"pr-review", "feat-dev", "feat-docs", "fix"}}
		tests := []struct {
			name   string
			env    Env
			branch any
			want   any
		}{
			{name: "role prefix", env: agents, branch: "feat/issue-7", want: "feat-dev"},
			{name: "the first of several in order", env: Env{"agents": []string{"feat-docs", "feat-dev"}}, branch: "feat/x", want: "feat-docs"},
			{name: "exact name wins", env: agents, branch: "fix/typo", want: "fix"},
			{name: "agents as a mapping", env: Env{"agents": map[string]any{"feat-dev": nil}}, branch: "feat/x", want: "feat-dev"},
			{name: "prefix must end at a dash", env: Env{"agents": []string{"feature"}}, branch: "feat/x", want: nil},
			{name: "no prefix", env: agents, branch: "main", want: nil},
			{name: "no agent", env: agents, branch: "docs/readme", want: nil},
			{name: "no agents", env: Env{}, branch: "feat/x", want: nil},
			{name: "not a string", env: agents, branch: 7, want: nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				assert.Equal(t, tt.want, agentForBranch(tt.env, tt.branch))
			})
		}
	})
}

func TestRewrite(t *testing.T) {
	tests := []struct{ src, want string }{
		{"branches.*.feedback", "map(branches, #.feedback)"},
		{"branches.*", "map(branches, #)"},
		{"a.b[0].*.c", "map(a.b[0], #.c)"},
		{"a.*.b.*.c", "map(a, map(#.b, #.c))"},
		{"f(a.*.b) + 1", "f(map(a, #.b)) + 1"},
		{"x | name", "x | name()"},
		{"x | name | other(1)", "x | name() | other(1)"},
		{"x || y", "x || y"},
		{`"a | b" | name`, `"a | b" | name()`},
		{"'.*'", "'.*'"},
		{"2 * 3", "2 * 3"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			rw := rewrite(tt.src)
			assert.Equal(t, tt.want, string(rw.text))
			assert.Len(t, rw.orig, len(rw.text))
		})
	}
}

func FuzzCompileTemplate(f *testing.F) {
	for _, s := range []string{"", "plain", "{{ context.a }}", "{{ ", "a {{ b }} c {{", "{{ branches.*.feedback }}",
		"{{ context.pr_number | linked_issue }}", "{{ '}}' }}", "{{ a.*.b.*[0] | x }}", "{{ 'é' + contxt }}", "{{ .* }}",
		"{{ ] .* }}", "{{ | }}", `{{ "\"} }}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tpl, err := CompileTemplate(src, Pos{File: "f.yaml", Line: 1, Col: 1})
		if err != nil {
			if err.Pos.Line != 1 || err.Pos.Col < 1 || err.Pos.Col > len([]rune(src))+1 {
				t.Fatalf("error outside the text: %v", err)
			}
			return
		}
		_, _ = tpl.Render(Env{})
		_, _ = CompileExpr(src, Pos{Line: 1, Col: 1})
	})
}

// TestNowIsTheEventsTime: now() gives the time of the event being evaluated, from the Env
// or its github root, and fails where there is none, never reading the machine's clock.
func TestNowIsTheEventsTime(t *testing.T) {
	at := time.Date(2026, 12, 24, 18, 30, 0, 0, time.UTC)
	e, cerr := CompileExpr(`now().Weekday().String() == "Thursday" && now().Hour() >= 17`, Pos{})
	require.Nil(t, cerr)
	ok, err := e.Bool(Env{ClockKey: at})
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = e.Bool(Env{"github": map[string]any{ClockKey: at.Add(-2 * time.Hour)}})
	require.NoError(t, err)
	assert.False(t, ok, "16:30 is before 17:00")

	_, err = e.Bool(Env{})
	assert.ErrorContains(t, err, "now() has no event time here")

	w, cerr := CompileExpr(`now().In(timezone("Europe/Berlin")).Hour()`, Pos{})
	require.Nil(t, cerr)
	v, err := w.Eval(Env{ClockKey: at})
	require.NoError(t, err)
	assert.Equal(t, 19, v)
}
