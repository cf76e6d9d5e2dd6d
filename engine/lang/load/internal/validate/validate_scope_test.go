package validate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func TestCheckIssueScopes(t *testing.T) {
	draft := false
	p1 := pipe("prs", 1)
	p1.Scope, p1.Trigger = lang.ScopeIssue, lang.Trigger{Event: "pull_request.opened", Pos: at(2)}
	p2 := pipe("issues", 5)
	p2.Trigger = lang.Trigger{Event: "issues.labeled", Pos: at(6), BaseBranch: "main", Draft: &draft}
	p3 := pipe("fine", 9)
	p3.Scope, p3.Trigger = lang.ScopeIssue, lang.Trigger{Event: "issues.opened", Pos: at(10), Labels: []string{"x"}}
	errs, warnings := checkIssueScopes(&lang.Config{Pipelines: []*lang.Pipeline{p1, p2, p3}})
	assert.Empty(t, warnings)
	assert.Equal(t, []string{
		`2:3: pipeline "prs" has scope: issue, so it starts on issues: its trigger must be an issues.* event (issues.opened, issues.labeled, …), not pull_request.opened [value]`,
		`6:3: pipeline "issues" starts on issues, which have no base_branch or draft: its trigger cannot ask for it [value]`,
	}, lines(errs))
	assert.True(t, p2.OnIssues(), "an issues.* trigger runs on issues without scope: issue")
	assert.True(t, p1.OnIssues(), "scope: issue runs on issues")
	assert.False(t, pipe("plain", 12).OnIssues())
}

func TestUpdateBranchIsRefusedInIssuePipelines(t *testing.T) {
	p := &lang.Pipeline{Name: "triage", Scope: lang.ScopeIssue, Trigger: lang.Trigger{Event: "issues.opened"}, Stages: []*lang.Stage{
		{ID: "up", Type: lang.StageAction, Action: lang.ActionUpdateBranch, Pos: at(4)},
	}}
	errs, _ := checkUpdateBranch(&lang.Config{Pipelines: []*lang.Pipeline{p}})
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), `action "update_branch" updates a pull request's branch`)
	p.Scope, p.Trigger.Event = lang.ScopeSinglePR, "pull_request.opened"
	errs, _ = checkUpdateBranch(&lang.Config{Pipelines: []*lang.Pipeline{p}})
	assert.Empty(t, errs)
}

func TestCheckMultiPRScopes(t *testing.T) {
	p1 := pipe("prs", 1)
	p1.Scope, p1.Trigger = lang.ScopeMultiPR, lang.Trigger{Event: "pull_request.opened", Pos: at(2)}
	p2 := multiPRConfig().Pipelines[0]
	p3 := multiPRConfig().Pipelines[0]
	p3.Name = "bare"
	p3.Stages[3].Branches[1].Config.PR = nil
	p3.Stages[3].Branches[1].Pos = at(20)
	errs, warnings := checkMultiPRScopes(&lang.Config{Pipelines: []*lang.Pipeline{p1, p2, p3}})
	assert.Empty(t, warnings)
	assert.Equal(t, []string{
		`2:3: pipeline "prs" has scope: multi-pr, whose runs start on an issue and follow its pull requests: its trigger must be an issues.* event (issues.opened, issues.labeled, …), not pull_request.opened [value]`,
	}, lines(errs))
	assert.True(t, p1.OnIssues(), "a multi-pr run's subject is an issue")
}

// multiPRConfig is cross-repo-feature with a gate in place of its reviews: agents open a
// pull request in acme/api and one in acme/web, a gate waits, both are merged.
func multiPRConfig() *lang.Config {
	tmpl := func(src string) *lang.Template {
		t, err := lang.CompileTemplate(src, lang.Pos{})
		if err != nil {
			panic(err)
		}
		return t
	}
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "dev", Dispatch: lang.DispatchComment, Body: "@dev implement this"}},
		Pipelines: []*lang.Pipeline{{
			Name:    "xr",
			Scope:   lang.ScopeMultiPR,
			Trigger: lang.Trigger{Event: "issues.labeled", Labels: []string{"cross-repo"}},
			Stages: []*lang.Stage{
				{ID: "api", Type: lang.StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "web",
					Values: []lang.KeyValue{{Key: "repo", Value: lang.Value{Kind: lang.KindString, Scalar: "acme/api"}}}},
				{ID: "web", Type: lang.StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "ready",
					Values: []lang.KeyValue{{Key: "repo", Value: lang.Value{Kind: lang.KindString, Scalar: "acme/web"}}}},
				{ID: "ready", Type: lang.StageGate, OnPass: "merge-all", Conditions: []lang.Condition{{Check: "ok"}}},
				{ID: "merge-all", Type: lang.StageParallel, Join: lang.JoinAll, OnComplete: lang.TargetComplete, Branches: []*lang.Stage{
					{ID: "merge-api", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash", PR: tmpl("{{ context.prs[0] }}")}},
					{ID: "merge-web", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash", PR: tmpl("{{ context.prs[1] }}")}},
				}},
			},
		}}}
}
