package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func TestFactsEnv(t *testing.T) {
	f := &model.Facts{Repo: "org/repo", DefaultBranch: "main", Viewer: "bot", PR: &model.PullRequest{
		Number: 7, Title: "Fix", State: model.PROpen, Author: "amy", BaseRef: "main", HeadRef: "feat/x", HeadSHA: "abc",
		Mergeable: model.Unknown, Labels: []string{"bug"},
		Checks: []model.CheckResult{{Name: "test", Kind: "check_run", State: model.CheckSuccess, Conclusion: "SUCCESS"}},
		Reviews: []model.Review{{Author: "bob", State: model.ReviewApproved, CommitSHA: "abc", CanPush: true},
			{Author: "review-agent[bot]", State: model.ReviewApproved, CommitSHA: "abc", CanPush: true, IsBot: true}},
	}}
	gh := model.FactsEnv(f)
	assert.Equal(t, "org/repo", gh["repo"])
	pr := gh["pr"].(map[string]any)
	assert.Equal(t, 7, pr["number"])
	assert.Nil(t, pr["mergeable"], "unknown while GitHub computes it")
	assert.Equal(t, []any{"bug"}, pr["labels"])
	assert.Equal(t, []any{map[string]any{"name": "test", "kind": "check_run", "state": "success", "conclusion": "SUCCESS"}}, pr["checks"])

	for m, want := range map[string]any{model.Mergeable: true, model.Conflicting: false} {
		f.PR.Mergeable = m
		assert.Equal(t, want, model.FactsEnv(f)["pr"].(map[string]any)["mergeable"], m)
	}

	e, cerr := lang.CompileExpr("github.pr.reviews[0].author == 'bob' && github.pr.head == 'feat/x' && "+
		"len(filter(github.pr.reviews, !.is_bot && .state == 'APPROVED')) == 1", lang.Pos{File: "p.yaml", Line: 4, Col: 12})
	assert.Nil(t, cerr)
	ok, err := e.Bool(lang.Env{"github": gh})
	assert.NoError(t, err)
	assert.True(t, ok)

	assert.Equal(t, map[string]any{"pr": nil}, model.FactsEnv(nil))
	assert.Nil(t, model.FactsEnv(&model.Facts{Repo: "org/repo"})["pr"])
}

func TestHasLabelOverTheFacts(t *testing.T) {
	e, cerr := lang.CompileExpr("'security' | has_label", lang.Pos{File: "p.yaml", Line: 4, Col: 12})
	require.Nil(t, cerr)
	got, err := e.Eval(lang.Env{"github": model.FactsEnv(&model.Facts{PR: &model.PullRequest{Labels: []string{"Security"}}})})
	require.NoError(t, err)
	assert.Equal(t, true, got)
}
