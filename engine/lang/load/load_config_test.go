package load

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func TestLoadActions(t *testing.T) {
	tests := []struct {
		name  string
		stage string
		check func(t *testing.T, s *lang.Stage)
	}{
		{"merge_pr in a multi-PR pipeline", `{id: s, type: action, action: merge_pr, config: {pr_number: "{{ context.prs[0] }}", method: rebase}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, "rebase", s.Config.Method)
				assert.Equal(t, "{{ context.prs[0] }}", tsrc(s.Config.PR))
			}},
		{"merge_pr handlers", `{id: s, type: action, action: merge_pr, on_conflict: {notify: {target: g}, label: merge-conflict, then: escalate}, on_ci_failure: {goto: s, max_iterations: 2, then: fail}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, "merge", s.Config.Method)
				assert.Equal(t, []string{"merge-conflict"}, s.OnConflict.Labels)
				assert.Equal(t, lang.TargetEscalate, s.OnConflict.Then)
				assert.Equal(t, "g", tsrc(s.OnConflict.Notify.Target))
				assert.Equal(t, "s", s.OnCIFailure.Goto)
				assert.Equal(t, 2, s.OnCIFailure.MaxIterations)
			}},
		{"on_conflict as a target", `{id: s, type: action, action: merge_pr, on_conflict: escalate}`,
			func(t *testing.T, s *lang.Stage) { assert.Equal(t, lang.TargetEscalate, s.OnConflict.Goto) }},
		{"comment with a template and a target", `{id: s, type: action, action: comment, config: {body: "merged into {{ context.base }}", target: pr}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, "merged into {{ context.base }}", s.Config.Body)
				assert.Equal(t, "merged into {{ context.base }}", tsrc(s.Config.BodyTemplate))
				assert.Equal(t, "pr", tsrc(s.Config.Target))
			}},
		{"close_issue", `{id: s, type: action, action: close_issue, config: {issue: "{{ context.pr_number | linked_issue }}"}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, "{{ context.pr_number | linked_issue }}", tsrc(s.Config.Issue))
			}},
		{"close_issue without config", `{id: s, type: action, action: close_issue}`,
			func(t *testing.T, s *lang.Stage) { assert.Nil(t, s.Config.Issue) }},
		{"create_issue", `{id: s, type: action, action: create_issue, config: {title: "follow up #{{ context.pr_number }}", body: text, labels: [a]}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, "follow up #{{ context.pr_number }}", tsrc(s.Config.Title))
				assert.Equal(t, "text", s.Config.Body)
				assert.Equal(t, []string{"a"}, s.Config.Labels)
			}},
		{"label", `{id: s, type: action, action: label, config: {add: [a, b], remove: c}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, []string{"a", "b"}, s.Config.Labels)
				assert.Equal(t, []string{"c"}, s.Config.Remove)
			}},
		{"notify", `{id: s, type: action, action: notify, config: {target: g, message: "done"}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, "g", tsrc(s.Config.Target))
				assert.Equal(t, "done", tsrc(s.Config.Message))
			}},
		{"request_reviewers", `{id: s, type: action, action: request_reviewers, config: {reviewers: [alice], teams: [acme/devs], group: g}}`,
			func(t *testing.T, s *lang.Stage) {
				assert.Equal(t, []string{"alice"}, s.Config.Reviewers)
				assert.Equal(t, []string{"acme/devs"}, s.Config.Teams)
				assert.Equal(t, "g", s.Config.Group)
			}},
		{"assign", `{id: s, type: action, action: assign, config: {assignees: bob}}`,
			func(t *testing.T, s *lang.Stage) { assert.Equal(t, []string{"bob"}, s.Config.Assignees) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := loadStages(t, "- "+tt.stage)
			require.Len(t, p.Stages, 1)
			assert.Equal(t, lang.TargetComplete, p.Stages[0].OnSuccess)
			tt.check(t, p.Stages[0])
		})
	}
}

const fullConfig = `version: 1
settings:
  max_nesting: 5
  state_branch: ci/state
  allow_commands: true
  webhooks: {allow: [API.example.com]}
  chatops: {permission: maintain, from: [maintainers]}
agents:
  test-coverage: {dispatch: workflow, workflow: agent-test-coverage.yml, ref: main}
  pr-review:     {dispatch: repository_dispatch, event_type: pr-review}
  feat-dev:      {dispatch: comment, body: "@claude implement this"}
  triage:        {dispatch: label, label: needs-triage}
  copilot:       {dispatch: assign, assignee: copilot}
groups:
  maintainers: {users: [alice, bob], teams: [acme/maintainers]}
pipelines:
  p:
    display_name: The P
    priority: -2
    scope: issue
    trigger:
      event: issues.labeled
      if: "trigger.label.name == 'go'"
    on_events:
      pull_request.synchronize: {action: invalidate_and_restart, invalidate: [a], restart_from: a}
      pull_request.edited: {action: invalidate_and_restart}
      pull_request.labeled: {action: notify, notify: {target: maintainers, message: "labeled"}}
      pull_request.unlabeled: {action: notify, target: maintainers}
      issue_comment.created: {action: wake_agent, agent: feat-dev, message: "{{ trigger.comment.body }}"}
    context:
      n: "{{ trigger.issue.number }}"
      prs: []
    variables: {limit: 3}
    stages:
      - {id: a, type: agent, agent: feat-dev}
    on_complete:
      - close_issue: "{{ context.n }}"
      - comment: {target: pr, message: "done"}
      - label: [done, shipped]
      - notify: maintainers
      - create_issue: {title: "follow-up"}
      - request_reviewers: {group: maintainers}
      - assign: alice
    on_error:
      - label: needs-human
  sub:
    stages:
      - {id: s, type: delay, duration: 1m}
`

func TestLoadTopLevel(t *testing.T) {
	cfg, err := Load("c.yaml", []byte(fullConfig), fakeRegistry{})
	require.NoError(t, err)
	assert.Equal(t, lang.Settings{Pos: lang.Pos{File: "c.yaml", Line: 2, Col: 1}, MaxNesting: 5, StateBranch: "ci/state", AllowCommand: true,
		WebhookHosts: []string{"api.example.com"}, ChatOpsPermission: "maintain", ChatOpsFrom: []string{"maintainers"},
		ChatOpsFromPos: lang.Pos{File: "c.yaml", Line: 7, Col: 41}}, cfg.Settings)
	pos := func(line, col int) lang.Pos { return lang.Pos{File: "c.yaml", Line: line, Col: col} }
	assert.Equal(t, []*lang.Agent{
		{Name: "test-coverage", Pos: pos(9, 3), Dispatch: lang.DispatchWorkflow, Workflow: "agent-test-coverage.yml", Ref: "main"},
		{Name: "pr-review", Pos: pos(10, 3), Dispatch: lang.DispatchRepositoryDispatch, EventType: "pr-review"},
		{Name: "feat-dev", Pos: pos(11, 3), Dispatch: lang.DispatchComment, Body: "@claude implement this"},
		{Name: "triage", Pos: pos(12, 3), Dispatch: lang.DispatchLabel, Label: "needs-triage"},
		{Name: "copilot", Pos: pos(13, 3), Dispatch: lang.DispatchAssign, Assignee: "copilot"},
	}, cfg.Agents)
	assert.Equal(t, []*lang.Group{{Name: "maintainers", Pos: pos(15, 3), Users: []string{"alice", "bob"}, Teams: []string{"acme/maintainers"}}}, cfg.Groups)

	p := cfg.Pipeline("p")
	assert.Equal(t, "The P", p.DisplayName)
	assert.Equal(t, -2, p.Priority)
	assert.Equal(t, lang.ScopeIssue, p.Scope)
	assert.True(t, p.HasTrigger)
	assert.Equal(t, "trigger.label.name == 'go'", p.Trigger.If.Src)
	assert.Equal(t, pos(23, 12), p.Trigger.If.Pos)
	require.Len(t, p.OnEvents, 5)
	assert.Equal(t, []string{"a"}, p.OnEvents[0].Invalidate)
	assert.Equal(t, "a", p.OnEvents[0].RestartFrom)
	assert.Equal(t, "current", p.OnEvents[1].RestartFrom)
	assert.Equal(t, "labeled", tsrc(p.OnEvents[2].Notify.Message))
	assert.Equal(t, "maintainers", tsrc(p.OnEvents[3].Notify.Target))
	assert.Equal(t, "feat-dev", p.OnEvents[4].Agent)
	assert.Equal(t, "{{ trigger.comment.body }}", tsrc(p.OnEvents[4].Message))
	assert.Equal(t, "{{ trigger.issue.number }}", tsrc(p.Context[0].Value.Template))
	assert.Equal(t, lang.KindList, p.Context[1].Value.Kind)
	assert.Equal(t, "limit", p.Variables[0].Key)
	var acts []string
	for _, it := range p.OnComplete {
		acts = append(acts, it.Action)
	}
	assert.Equal(t, []string{"close_issue", "comment", "label", "notify", "create_issue", "request_reviewers", "assign"}, acts)
	assert.Equal(t, "{{ context.n }}", tsrc(p.OnComplete[0].Args.Template))
	assert.Equal(t, lang.KindMap, p.OnComplete[1].Args.Kind)
	assert.Equal(t, "needs-human", p.OnError[0].Args.Scalar)

	sub := cfg.Pipeline("sub")
	assert.False(t, sub.HasTrigger)
	assert.Equal(t, time.Minute, sub.Stages[0].Duration)
}

func TestLoadFiles(t *testing.T) {
	main := "version: 1\nagents:\n  a: {dispatch: label, label: x}\npipelines:\n  p:\n    stages:\n      - {id: s, type: agent, agent: a}\n"
	other := "pipelines:\n  q:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: s, type: pipeline, pipeline: p}\n"
	cfg, err := LoadFiles([]SourceFile{
		{Path: ".github/pipelines/q.yaml", Src: []byte(other)},
		{Path: ".github/pipelines.yaml", Src: []byte(main)},
	}, fakeRegistry{})
	require.NoError(t, err)
	assert.Equal(t, 1, cfg.Version)
	require.Len(t, cfg.Pipelines, 2)
	assert.Equal(t, "p", cfg.Pipelines[0].Name)
	assert.Equal(t, lang.Pos{File: ".github/pipelines/q.yaml", Line: 2, Col: 3}, cfg.Pipelines[1].Pos)

	dup := "agents:\n  a: {dispatch: label, label: y}\nsettings: {max_nesting: 2}\npipelines:\n  p:\n    stages:\n      - {id: s, type: delay, duration: 1s}\n"
	_, err = LoadFiles([]SourceFile{
		{Path: ".github/pipelines.yaml", Src: []byte(main + "settings: {}\n")},
		{Path: ".github/pipelines/dup.yaml", Src: []byte(dup)},
	}, fakeRegistry{})
	require.EqualError(t, err, `.github/pipelines/dup.yaml:2:3: agent "a" is defined in two files; previously defined at .github/pipelines.yaml:3:3 [key]
.github/pipelines/dup.yaml:3:1: "settings" is defined in two files; previously defined at .github/pipelines.yaml:8:1 [key]
.github/pipelines/dup.yaml:5:3: pipeline "p" is defined in two files; previously defined at .github/pipelines.yaml:5:3 [key]`)

	_, err = LoadFiles([]SourceFile{{Path: "a.yaml", Src: []byte(other)}}, fakeRegistry{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `a.yaml:1:1: missing required key "version" in the config`)

	_, err = LoadFiles(nil, fakeRegistry{})
	require.Error(t, err)
}

// commandRegistry is fakeRegistry with a `command` check.
type commandRegistry struct{ fakeRegistry }

func (commandRegistry) Lookup(name string) (lang.Gate, bool) {
	if name == "command" {
		return fakeGate{name: name}, true
	}
	return fakeRegistry{}.Lookup(name)
}

func TestLoadCommandNeedsAllowCommands(t *testing.T) {
	const stages = "pipelines:\n  p:\n    stages:\n      - {id: g, type: gate, conditions: [{check: command}]}\n"
	_, err := Load("c.yaml", []byte("version: 1\n"+stages), commandRegistry{})
	require.EqualError(t, err, `c.yaml:5:50: check "command" runs a command on the runner; allow it with "settings: {allow_commands: true}" [gate]`)
	_, err = Load("c.yaml", []byte("version: 1\nsettings: {allow_commands: true}\n"+stages), commandRegistry{})
	require.NoError(t, err)
}
