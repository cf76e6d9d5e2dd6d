package pipelineaction_test

// invalidRule holds the mistakes against the language's rules: unknown names, empty
// lists, and keys that need or exclude others (see invalidCase).
var invalidRule = []invalidCase{
	{name: "http check over plain http", at: "/pipelines/p/stages/0/conditions/0/url", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: http, url: "http://status.example.com/", expect: "true"}]}`)},
	{name: "unknown check", at: "/pipelines/p/stages/0/conditions/0/check", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: tests_green}]}`)},
	{name: "python custom gates", at: "", says: "additional properties 'pipeline_settings' not allowed", line: 3, yaml: `
version: 1
pipeline_settings:
  custom_gates:
    - module: "squadron_custom.gates"
      checks:
        - name: "deployment_ready"
          class: "DeploymentReadyCheck"
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: ci_status}]}
`},
	{name: "custom gate of a built-in check", at: "/settings/custom_gates/reviewed/conditions/0/check", line: 6, yaml: `
version: 1
settings:
  custom_gates:
    reviewed:
      conditions: [{check: human_aproved}]
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: reviewed}]}
`},
	{name: "misspelt check", at: "/pipelines/p/stages/0/conditions/0/check", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: human_aproved}]}`)},
	{name: "unknown stage type", at: "/pipelines/p/stages/0/type", line: 6, yaml: oneStage(`{id: s, type: wait, conditions: [{check: no_changes_requested}]}`)},
	{name: "unknown action", at: "/pipelines/p/stages/0/action", line: 6, yaml: oneStage(`{id: m, type: action, action: rebase_pr}`)},
	{name: "set_shared without a value", at: "/pipelines/p/stages/0/config", line: 6, yaml: oneStage(`{id: m, type: action, action: set_shared, config: {name: x}}`)},
	{name: "set_variable with a bad name", at: "/pipelines/p/on_complete/0/set_variable/name", line: 7, yaml: `
version: 1
pipelines:
  p:
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
    on_complete:
      - set_variable: {name: 9lives, value: 1}
`},
	{name: "unknown trigger event", at: "/pipelines/p/trigger/event", line: 5, yaml: `
version: 1
pipelines:
  p:
    trigger: {event: pull_request.merged}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "trigger event without action", at: "/pipelines/p/trigger/event", line: 5, yaml: `
version: 1
pipelines:
  p:
    trigger: {event: push}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "unknown on_events event", says: "invalid propertyName 'pull_request.merged'", line: 6, yaml: `
version: 1
pipelines:
  p:
    on_events:
      pull_request.merged: {action: cancel}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "invalid pipeline name", says: "invalid propertyName 'Auto Merge'", line: 4, yaml: `
version: 1
pipelines:
  Auto Merge:
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "invalid stage id", at: "/pipelines/p/stages/0/id", line: 6, yaml: oneStage(`{id: Ready Gate, type: gate, conditions: [{check: no_changes_requested}]}`)},
	{name: "empty pipelines", at: "/pipelines", line: 3, yaml: `
version: 1
pipelines: {}
`},
	{name: "empty stages", at: "/pipelines/p/stages", line: 5, yaml: `
version: 1
pipelines:
  p:
    stages: []
`},
	{name: "empty conditions", at: "/pipelines/p/stages/0/conditions", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: []}`)},
	{name: "max_iterations zero", at: "/pipelines/p/stages/1/on_fail/max_iterations", line: 7, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: a, type: gate, conditions: [{check: ci_status}]}
      - {id: b, type: gate, conditions: [{check: no_changes_requested}], on_fail: {goto: a, max_iterations: 0, then: fail}}
`},
	{name: "timeout of zero", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 0s}`)},
	{name: "extend without a duration", at: "/pipelines/p/stages/0/on_timeout", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 1h, on_timeout: {then: extend}}`)},
	{name: "max_iterations without goto", at: "/pipelines/p/stages/0/on_fail", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], on_fail: {max_iterations: 2, then: fail}}`)},
	{name: "invalid agent name", says: "invalid propertyName 'Reviewer'", line: 4, yaml: `
version: 1
agents:
  Reviewer: {dispatch: workflow, workflow: review.yml}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "workflow is not a workflow file", at: "/agents/rev/workflow", line: 4, yaml: `
version: 1
agents:
  rev: {dispatch: workflow, workflow: review}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "key of another dispatch", at: "/agents/rev", line: 4, yaml: `
version: 1
agents:
  rev: {dispatch: label, label: review, event_type: review}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "group without members", at: "/groups/maintainers/users", line: 4, yaml: `
version: 1
groups:
  maintainers: {users: []}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "team without org", at: "/groups/maintainers/teams", line: 4, yaml: `
version: 1
groups:
  maintainers: {teams: maintainers}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "bad chatops permission", at: "/settings/chatops/permission", line: 4, yaml: `
version: 1
settings:
  chatops: {permission: owner}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "webhook host with a scheme", at: "/settings/webhooks/allow/0", line: 4, yaml: `
version: 1
settings:
  webhooks: {allow: ["https://api.example.com"]}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "comment item without message", at: "/pipelines/p/on_complete/0/comment", line: 6, yaml: `
version: 1
pipelines:
  p:
    on_complete:
      - comment: {target: pr}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "create_issue as a string", at: "/pipelines/p/on_error/0/create_issue", line: 6, yaml: `
version: 1
pipelines:
  p:
    on_error:
      - create_issue: it broke
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "unknown on_complete action", at: "/pipelines/p/on_complete/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    on_complete:
      - celebrate: true
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "key of another reaction", at: "/pipelines/p/on_events/pull_request.closed", line: 6, yaml: `
version: 1
pipelines:
  p:
    on_events:
      pull_request.closed: {action: cancel, restart_from: s}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "skip_to without condition", at: "/pipelines/p/stages/0", line: 7, yaml: `
version: 1
agents: {rev: {dispatch: label, label: review}}
pipelines:
  p:
    stages:
      - {id: a, type: agent, agent: rev, skip_to: complete}
`},
	{name: "on_timeout without timeout", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], on_timeout: fail}`)},
	{name: "label of a human stage waiting for approval", at: "/pipelines/p/stages/0/label", line: 6, yaml: oneStage(`{id: h, type: human, wait_for: approval, label: lgtm}`)},
	{name: "missing wait_for", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: h, type: human, count: 2}`)},
	{name: "pattern that does not compile", at: "/pipelines/p/stages/0/pattern", line: 6, yaml: oneStage(`{id: h, type: human, wait_for: comment, pattern: "(approve"}`)},
	{name: "relative webhook url", at: "/pipelines/p/stages/0/request/url", line: 7, yaml: `
version: 1
settings: {webhooks: {allow: [api.example.com]}}
pipelines:
  p:
    stages:
      - {id: w, type: webhook, request: {url: /validate}}
`},
	{name: "notify action without config", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: n, type: action, action: notify}`)},
	{name: "on_conflict of a comment", at: "/pipelines/p/stages/0/on_conflict", line: 6, yaml: oneStage(`{id: c, type: action, action: comment, config: {body: hi}, on_conflict: fail}`)},
	{name: "unknown branch type", at: "/pipelines/p/stages/0/branches/0/type", line: 6, yaml: oneStage(`{id: par, type: parallel, branches: [{id: b, type: gate, conditions: [{check: ci_status}]}]}`)},
	{name: "join in words", at: "/pipelines/p/stages/0/join", line: 7, yaml: `
version: 1
agents: {rev: {dispatch: label, label: review}}
pipelines:
  p:
    stages:
      - {id: par, type: parallel, join: most, branches: [{id: b, agent: rev}]}
`},
	{name: "checks and workflows both", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: ci_status, checks: [test], workflows: [test]}]}`)},
	{name: "max_nesting zero", at: "/settings/max_nesting", line: 4, yaml: `
version: 1
settings:
  max_nesting: 0
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
}
