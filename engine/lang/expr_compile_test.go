package lang

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompilerSharesPrograms checks that a Compiler compiles a text once: the same
// condition written in two places, and the same expression inside a template, share
// one program, while each keeps its own text and position.
func TestCompilerSharesPrograms(t *testing.T) {
	c := NewCompiler()
	second := Pos{File: "p.yaml", Line: 40, Col: 3}
	a, err := c.Expr("stages.plan.outputs.risk == 'high'", exprAt)
	require.Nil(t, err)
	b, err := c.Expr("  stages.plan.outputs.risk == 'high'", second)
	require.Nil(t, err)
	w, err := c.Expr("{{stages.plan.outputs.risk == 'high'}}", second)
	require.Nil(t, err)
	tpl, err := c.Template("risky: {{stages.plan.outputs.risk == 'high'}}", second)
	require.Nil(t, err)
	require.Len(t, tpl.Exprs(), 1)

	assert.Same(t, a.prog, w.prog)
	assert.Same(t, a.prog, tpl.Exprs()[0].prog)
	assert.NotSame(t, a.prog, b.prog, "the leading spaces make another text")
	assert.Equal(t, exprAt, a.Pos)
	assert.Equal(t, Pos{File: "p.yaml", Line: 40, Col: 5}, b.Pos)
	assert.Equal(t, Pos{File: "p.yaml", Line: 40, Col: 5}, w.Pos)
	assert.Equal(t, Pos{File: "p.yaml", Line: 40, Col: 12}, tpl.Exprs()[0].Pos)
	assert.Equal(t, []string{"stages"}, w.Roots())

	env := Env{"stages": map[string]any{"plan": map[string]any{"outputs": map[string]any{"risk": "high"}}}}
	for _, e := range []*Expr{a, b, w, tpl.Exprs()[0]} {
		got, err := e.Bool(env)
		require.NoError(t, err)
		assert.True(t, got)
	}
	got, err2 := tpl.Render(env)
	require.NoError(t, err2)
	assert.Equal(t, "risky: true", got)
}

// TestCompilerMatchesCompileExpr compiles each text twice with one Compiler, at two
// positions, and once with CompileExpr at each: the results are the same, errors
// included, each pointing at its own place.
func TestCompilerMatchesCompileExpr(t *testing.T) {
	srcs := []string{
		"trigger.pull_request.draft == false", "context.a | upper == 'X'", "branches.*.feedback",
		"len(stages.s0.outputs.files) <= 40", "null == context.x", "let n = 2; n * 3",
		"contxt.a", "1 +", "context.a == == 1", "1 + 'a'", "context.a\n  == b", "{{ contxt.a }}",
		"context.pr | linked_isue", "linkedissue(context.pr_number)",
	}
	c := NewCompiler()
	for _, src := range srcs {
		for _, pos := range []Pos{exprAt, {File: "q.yaml", Line: 9, Col: 30}} {
			t.Run(fmt.Sprintf("%s at %s", src, pos), func(t *testing.T) {
				got, gotErr := c.Expr(src, pos)
				want, wantErr := CompileExpr(src, pos)
				require.Equal(t, wantErr, gotErr)
				if want == nil {
					assert.Nil(t, got)
					return
				}
				assert.Equal(t, want.Src, got.Src)
				assert.Equal(t, want.Pos, got.Pos)
				assert.Equal(t, want.Roots(), got.Roots())
				env := Env{"context": map[string]any{"a": "x"}, "branches": []any{map[string]any{"feedback": "f"}},
					"stages": map[string]any{"s0": map[string]any{"outputs": map[string]any{"files": []any{1, 2}}}}}
				wv, werr := want.Eval(env)
				gv, gerr := got.Eval(env)
				assert.Equal(t, werr, gerr)
				assert.Equal(t, wv, gv)
			})
		}
	}
}

// TestSharedProgramRunsConcurrently evaluates one shared program from many goroutines
// over different environments (run with -race, it shows that a program is only read).
func TestSharedProgramRunsConcurrently(t *testing.T) {
	c := NewCompiler()
	var exprs []*Expr
	for range 4 {
		e, err := c.Expr("context.n * 2 + len(branches) + ('x' | has_label ? 1 : 0)", exprAt)
		require.Nil(t, err)
		exprs = append(exprs, e)
	}
	var wg sync.WaitGroup
	results := make([][]any, len(exprs))
	for i, e := range exprs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 200 {
				env := Env{"context": map[string]any{"n": n}, "branches": []any{1, 2},
					"github": map[string]any{"pr": map[string]any{"labels": []any{"X"}}}}
				v, err := e.Eval(env)
				if err != nil {
					results[i] = append(results[i], err)
					continue
				}
				results[i] = append(results[i], v)
			}
		}()
	}
	wg.Wait()
	for _, r := range results {
		require.Len(t, r, 200)
		for n, v := range r {
			assert.Equal(t, n*2+2+1, v)
		}
	}
}
