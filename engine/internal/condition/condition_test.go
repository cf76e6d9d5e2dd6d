package condition

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

func expr(t *testing.T, src string) *lang.Expr {
	t.Helper()
	e, err := lang.CompileExpr(src, lang.Pos{})
	require.Nil(t, err)
	return e
}

func TestDecide(t *testing.T) {
	pr := &model.PullRequest{Labels: []string{"Security"}, Files: []string{"src/auth/login.go"}, FilesRead: true}
	f := &model.Facts{PR: pr}
	env := func() lang.Env { return lang.Env{"context": map[string]any{"n": 2}} }
	tests := []struct {
		name string
		c    *lang.Predicate
		ok   bool
		why  string
	}{
		{"none", nil, true, "no condition"},
		{"a label, as GitHub compares them", &lang.Predicate{LabelsInclude: []string{"security"}}, true, "labels security present"},
		{"a missing label", &lang.Predicate{LabelsInclude: []string{"docs"}}, false, `label "docs" is not on the pull request`},
		{"a changed path", &lang.Predicate{PathsMatch: []string{"src/**"}}, true, "a changed file matches src/**"},
		{"no changed path", &lang.Predicate{PathsMatch: []string{"docs/**"}}, false, "no changed file matches docs/**"},
		{"an expression", &lang.Predicate{Expr: expr(t, "context.n > 1")}, true, `"context.n > 1" holds`},
		{"any of", &lang.Predicate{Any: []lang.Predicate{{PathsMatch: []string{"docs/**"}}, {LabelsInclude: []string{"security"}}}}, true, "labels security present"},
		{"all of", &lang.Predicate{All: []lang.Predicate{{PathsMatch: []string{"src/**"}}, {LabelsInclude: []string{"docs"}}}}, false, `label "docs" is not on the pull request`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, why, needs, err := Decide(tt.c, f, env)
			require.NoError(t, err)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.why, why)
			assert.False(t, needs)
		})
	}
}

// A condition that cannot be decided is an error, never true or false; one that tested files
// not read yet says so, so that they are read and it is decided again.
func TestDecideUndecided(t *testing.T) {
	unread := &model.Facts{PR: &model.PullRequest{}}
	_, _, needs, err := Decide(&lang.Predicate{PathsMatch: []string{"src/**"}}, unread, nil)
	assert.True(t, needs)
	assert.ErrorContains(t, err, "the changed files of the pull request were not read")

	truncated := &model.Facts{PR: &model.PullRequest{Files: []string{"a"}, FilesRead: true, FilesTruncated: true}}
	_, _, _, err = Decide(&lang.Predicate{PathsMatch: []string{"src/**"}}, truncated, nil)
	assert.ErrorContains(t, err, "cannot be decided")

	_, _, _, err = Decide(&lang.Predicate{Expr: expr(t, "context.n > 1")}, truncated, func() lang.Env { return lang.Env{} })
	assert.Error(t, err)
}

// The merge guard skips a stage only on a condition of the facts alone that decidedly does
// not hold.
func TestGuardSkips(t *testing.T) {
	f := &model.Facts{PR: &model.PullRequest{Files: []string{"docs/a.md"}, FilesRead: true}}
	skips := func(c *lang.Predicate, f *model.Facts) bool { s, _ := GuardSkips(c, f); return s }
	assert.True(t, skips(&lang.Predicate{PathsMatch: []string{"src/**"}}, f))
	assert.False(t, skips(&lang.Predicate{PathsMatch: []string{"docs/**"}}, f))
	assert.False(t, skips(&lang.Predicate{Expr: expr(t, "context.n > 1")}, f), "the run's context is the state's, not today's facts")
	assert.False(t, skips(nil, f))
	s, needs := GuardSkips(&lang.Predicate{PathsMatch: []string{"src/**"}}, &model.Facts{PR: &model.PullRequest{}})
	assert.False(t, s, "undecided")
	assert.True(t, needs, "the files are read, and the guard asks again")
}
