package lang

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckIssueScopes(t *testing.T) {
	draft := false
	p1 := pipe("prs", 1)
	p1.Scope, p1.Trigger = ScopeIssue, Trigger{Event: "pull_request.opened", Pos: at(2)}
	p2 := pipe("issues", 5)
	p2.Trigger = Trigger{Event: "issues.labeled", Pos: at(6), BaseBranch: "main", Draft: &draft}
	p3 := pipe("fine", 9)
	p3.Scope, p3.Trigger = ScopeIssue, Trigger{Event: "issues.opened", Pos: at(10), Labels: []string{"x"}}
	errs, warnings := checkIssueScopes(&Config{Pipelines: []*Pipeline{p1, p2, p3}})
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
	p := &Pipeline{Name: "triage", Scope: ScopeIssue, Trigger: Trigger{Event: "issues.opened"}, Stages: []*Stage{
		{ID: "up", Type: StageAction, Action: ActionUpdateBranch, Pos: at(4)},
	}}
	errs, _ := checkUpdateBranch(&Config{Pipelines: []*Pipeline{p}})
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), `action "update_branch" updates a pull request's branch`)
	p.Scope, p.Trigger.Event = ScopeSinglePR, "pull_request.opened"
	errs, _ = checkUpdateBranch(&Config{Pipelines: []*Pipeline{p}})
	assert.Empty(t, errs)
}

func TestCheckMultiPRScopes(t *testing.T) {
	p1 := pipe("prs", 1)
	p1.Scope, p1.Trigger = ScopeMultiPR, Trigger{Event: "pull_request.opened", Pos: at(2)}
	p2 := multiPRConfig().Pipelines[0]
	p3 := multiPRConfig().Pipelines[0]
	p3.Name = "bare"
	p3.Stages[3].Branches[1].Config.PR = nil
	p3.Stages[3].Branches[1].Pos = at(20)
	errs, warnings := checkMultiPRScopes(&Config{Pipelines: []*Pipeline{p1, p2, p3}})
	assert.Empty(t, warnings)
	assert.Equal(t, []string{
		`2:3: pipeline "prs" has scope: multi-pr, whose runs start on an issue and follow its pull requests: its trigger must be an issues.* event (issues.opened, issues.labeled, …), not pull_request.opened [value]`,
	}, lines(errs))
	assert.True(t, p1.OnIssues(), "a multi-pr run's subject is an issue")
}

// multiPRConfig is cross-repo-feature with a gate in place of its reviews: agents open a
// pull request in acme/api and one in acme/web, a gate waits, both are merged.
func multiPRConfig() *Config {
	tmpl := func(src string) *Template {
		t, err := CompileTemplate(src, Pos{})
		if err != nil {
			panic(err)
		}
		return t
	}
	return &Config{Version: 1, BlobOID: "blob1",
		Agents: []*Agent{{Name: "dev", Dispatch: DispatchComment, Body: "@dev implement this"}},
		Pipelines: []*Pipeline{{
			Name:    "xr",
			Scope:   ScopeMultiPR,
			Trigger: Trigger{Event: "issues.labeled", Labels: []string{"cross-repo"}},
			Stages: []*Stage{
				{ID: "api", Type: StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "web",
					Values: []KeyValue{{Key: "repo", Value: Value{Kind: KindString, Scalar: "acme/api"}}}},
				{ID: "web", Type: StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "ready",
					Values: []KeyValue{{Key: "repo", Value: Value{Kind: KindString, Scalar: "acme/web"}}}},
				{ID: "ready", Type: StageGate, OnPass: "merge-all", Conditions: []Condition{{Check: "ok"}}},
				{ID: "merge-all", Type: StageParallel, Join: JoinAll, OnComplete: TargetComplete, Branches: []*Stage{
					{ID: "merge-api", Type: StageAction, Action: ActionMergePR, Config: ActionConfig{Method: "squash", PR: tmpl("{{ context.prs[0] }}")}},
					{ID: "merge-web", Type: StageAction, Action: ActionMergePR, Config: ActionConfig{Method: "squash", PR: tmpl("{{ context.prs[1] }}")}},
				}},
			},
		}}}
}
