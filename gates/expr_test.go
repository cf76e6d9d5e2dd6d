package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

func TestExpr(t *testing.T) {
	tests := []gateCase{
		{
			name:   "true",
			params: "{expr: github.pr.number == 7 && !github.pr.draft}",
			facts:  facts(),
			want:   model.GateResult{Status: model.GatePass, Message: `"github.pr.number == 7 && !github.pr.draft" holds`},
		},
		{
			name:   "false, with a message",
			params: `{expr: "'ready' in github.pr.labels", message: "add the ready label to PR #{{ github.pr.number }}"}`,
			facts:  facts(labels("bug")),
			want:   model.GateResult{Status: model.GatePending, Message: "add the ready label to PR #7"},
		},
		{
			name:   "false, without a message",
			params: `{expr: "github.pr.mergeable != null"}`,
			facts:  facts(),
			want:   model.GateResult{Status: model.GatePending, Message: `"github.pr.mergeable != null" does not hold yet`},
		},
		{
			name:   "mergeable known",
			params: `{expr: "{{ github.pr.mergeable != null }}"}`,
			facts:  facts(func(pr *model.PullRequest) { pr.Mergeable = model.Conflicting }),
			want:   model.GateResult{Status: model.GatePass, Message: `"github.pr.mergeable != null" holds`},
		},
		{
			name:   "checks and reviews",
			params: `{expr: "all(github.pr.checks, .state == 'success') && any(github.pr.reviews, .state == 'APPROVED' && .commit_sha == github.pr.head_sha)"}`,
			facts:  facts(check("test", model.CheckSuccess), review("alice", model.ReviewApproved, head)),
			want: model.GateResult{Status: model.GatePass,
				Message: `"all(github.pr.checks, .state == 'success') && any(github.pr.reviews, .state == 'APPROVED' && .commit_sha == github.pr.head_sha)" holds`},
		},
		{
			name:   "not a boolean fails closed",
			params: "{expr: github.pr.title}",
			facts:  facts(func(pr *model.PullRequest) { pr.Title = "Fix it" }),
			want: model.GateResult{Status: model.GateError,
				Message: `expression "github.pr.title" at t.yaml:1:8 gave the string Fix it, not true or false`},
		},
		{
			name:   "no pull request fails closed",
			params: "{expr: github.pr.draft == false}",
			facts:  &model.Facts{Repo: "org/repo"},
			want: model.GateResult{Status: model.GateError,
				Message: `evaluating "github.pr.draft == false" at t.yaml:1:8: cannot fetch draft from <nil>`},
		},
		{
			name:   "a message that fails to render falls back",
			params: `{expr: "false", message: "{{ context.a.b }}"}`,
			facts:  facts(),
			want:   model.GateResult{Status: model.GatePending, Message: `"false" does not hold yet`},
		},
	}
	assertEvaluates(t, Expr{}, "expr", "", tests)
}

func TestExprParams(t *testing.T) {
	tests := []paramCase{
		{name: "missing", params: "{message: hi}", want: `t.yaml:1:1: missing required key "expr" for check "expr" [gate]`},
		{name: "unknown root", params: "{expr: pr.draft}",
			want: `t.yaml:1:8: unknown name "pr" in expression; known names: "branches", "context", "github", "outputs", "run", "shared", "stages", "subject", "trigger", "variables" [expr]`},
		{name: "syntax error inside quotes", params: `{expr: "github.pr.draft &&"}`,
			want: `t.yaml:1:27: unexpected end of expression [expr]`},
		{name: "not a string", params: "{expr: [a]}", want: `t.yaml:1:8: "expr" of check "expr" must be an expression [gate]`},
		{name: "bad message", params: `{expr: "true", message: "{{ x"}`,
			want: `t.yaml:1:26: unclosed "{{" in template; end the expression with "}}" [expr]`},
	}
	assertRefuses(t, Expr{}, "expr", false, tests)
}

// An expr check over the run's stages or context reads the run's env at its gate: an
// expression over the run alone is decided (false or an error fails), one that also reads
// the facts waits while false.
func TestExprOverRun(t *testing.T) {
	c := mustCompile(t, Expr{}, "expr", `{expr: "stages.plan.outputs.risk < 3", message: "risk {{ stages.plan.outputs.risk }}"}`)
	rc, ok := c.(engine.RunCheck)
	require.True(t, ok, "%T", c)
	env := func(risk any) lang.Env {
		return lang.Env{"github": model.FactsEnv(nil), "stages": map[string]any{"plan": map[string]any{"outputs": map[string]any{"risk": risk}}}}
	}
	assert.Equal(t, model.GatePass, rc.EvaluateRun(nil, env(1)).Status)
	r := rc.EvaluateRun(nil, env(5))
	assert.Equal(t, model.GateFail, r.Status, "nothing the gate waits for can change the run's outputs")
	assert.Equal(t, "risk 5", r.Message)
	r = rc.EvaluateRun(nil, lang.Env{"github": model.FactsEnv(nil)})
	assert.Equal(t, model.GateFail, r.Status, "a missing output fails closed: %s", r.Message)
	assert.Equal(t, model.GateError, c.Evaluate(nil).Status, "without a run it cannot be decided")

	c = mustCompile(t, Expr{}, "expr", `{expr: "stages.plan.outputs.risk < 3 && !github.pr.draft"}`)
	rc = c.(engine.RunCheck)
	f := &model.Facts{PR: &model.PullRequest{Draft: true}}
	e := env(1)
	e["github"] = model.FactsEnv(f)
	assert.Equal(t, model.GatePending, rc.EvaluateRun(f, e).Status, "a draft can become ready: it waits")

	c = mustCompile(t, Expr{}, "expr", `{expr: "!github.pr.draft"}`)
	_, ok = c.(engine.RunCheck)
	assert.False(t, ok, "an expression over the facts alone is a plain check")
}

// A gate over the subject's shared variables waits while false: another pipeline may set
// them while it waits.
func TestExprOverSharedWaits(t *testing.T) {
	c := mustCompile(t, Expr{}, "expr", `{expr: "shared.ready == true"}`)
	rc, ok := c.(engine.RunCheck)
	require.True(t, ok, "%T", c)
	env := lang.Env{"github": model.FactsEnv(nil), "shared": map[string]any{}}
	assert.Equal(t, model.GatePending, rc.EvaluateRun(nil, env).Status, "not set yet: it waits")
	env["shared"] = map[string]any{"ready": true}
	assert.Equal(t, model.GatePass, rc.EvaluateRun(nil, env).Status)
}

// An expression over the run alone reads no pull request; one over the facts does.
func TestExprNeedsPR(t *testing.T) {
	for src, want := range map[string]bool{
		`{expr: "stages.review.verdict == 'approve'"}`:                        false,
		`{expr: "context.risk == 'low' && shared.ready == true"}`:             false,
		`{expr: "github.pr.draft == false"}`:                                  true,
		`{expr: "stages.review.verdict == 'approve' && github.pr.mergeable"}`: true,
	} {
		c := mustCompile(t, Expr{}, "expr", src)
		pc, ok := c.(engine.PRFreeCheck)
		require.True(t, ok, src)
		assert.Equal(t, want, pc.NeedsPR(), src)
	}
}
