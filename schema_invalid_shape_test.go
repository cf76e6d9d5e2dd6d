package pipelineaction_test

// invalidShape holds the mistakes in the shape of a config: unknown keys, values of the
// wrong type or form, and required keys left out (see invalidCase).
var invalidShape = []invalidCase{
	{name: "unknown top-level key", at: "", line: 3, yaml: `
version: 1
pipeline:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "unknown pipeline key", at: "/pipelines/p", line: 5, yaml: `
version: 1
pipelines:
  p:
    descripton: typo
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "unknown gate stage key", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], on_passs: complete}`)},
	{name: "key of another stage type", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], on_success: complete}`)},
	{name: "unknown trigger key", at: "/pipelines/p/trigger", line: 5, yaml: `
version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened, branch: main}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "unknown trigger condition", at: "/pipelines/p/trigger/conditions", line: 7, yaml: `
version: 1
pipelines:
  p:
    trigger:
      event: pull_request.opened
      conditions: {base: main}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "unknown merge config key", at: "/pipelines/p/stages/0/config", line: 6, yaml: oneStage(`{id: m, type: action, action: merge_pr, config: {strategy: squash}}`)},
	{name: "unknown check parameter", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: label_present, label: ok, colour: red}]}`)},
	{name: "version is a string", at: "/version", line: 2, yaml: `
version: "1"
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "version is 2", at: "/version", line: 2, yaml: `
version: 2
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "stages is a mapping", at: "/pipelines/p/stages", line: 5, yaml: `
version: 1
pipelines:
  p:
    stages: {id: s, type: gate}
`},
	{name: "conditions is a string", at: "/pipelines/p/stages/0/conditions", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: no_changes_requested}`)},
	{name: "draft is a string", at: "/pipelines/p/trigger/conditions/draft", line: 7, yaml: `
version: 1
pipelines:
  p:
    trigger:
      event: pull_request.opened
      conditions: {draft: "no"}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "count is a string", at: "/pipelines/p/stages/0/conditions/0/count", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: human_approved, count: two}]}`)},
	{name: "count is zero", at: "/pipelines/p/stages/0/conditions/0/count", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: human_approved, count: 0}]}`)},
	{name: "optional is a string", at: "/pipelines/p/stages/0/conditions/0/optional", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested, optional: maybe}]}`)},
	{name: "bad merge method", at: "/pipelines/p/stages/0/config/method", line: 6, yaml: oneStage(`{id: m, type: action, action: merge_pr, config: {method: fast-forward}}`)},
	{name: "bad ci_status expect", at: "/pipelines/p/stages/0/conditions/0/expect", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: ci_status, expect: green}]}`)},
	{name: "bad on_events action", at: "/pipelines/p/on_events/pull_request.closed/action", line: 6, yaml: `
version: 1
pipelines:
  p:
    on_events:
      pull_request.closed: {action: stop}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "bad scope", at: "/pipelines/p/scope", line: 5, yaml: `
version: 1
pipelines:
  p:
    scope: whole-repo
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "bad agent dispatch", at: "/agents/rev/dispatch", line: 4, yaml: `
version: 1
agents:
  rev: {dispatch: carrier-pigeon}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "bad agent login", at: "/agents/rev/login", line: 4, yaml: `
version: 1
agents:
  rev: {dispatch: label, label: review-me, login: "@review-bot"}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "bad wait_for", at: "/pipelines/p/stages/0/wait_for", line: 8, yaml: `
version: 1
groups:
  maintainers: {users: [alice]}
pipelines:
  p:
    stages:
      - {id: h, type: human, wait_for: thumbs-up, from: maintainers}
`},
	{name: "timeout without a unit", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 30}`)},
	{name: "timeout in weeks", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 2w}`)},
	{name: "timeout in words", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: one day}`)},
	{name: "delay duration with a space", at: "/pipelines/p/stages/0/duration", line: 6, yaml: oneStage(`{id: d, type: delay, duration: 5 m}`)},
	{name: "missing version", at: "", line: 2, yaml: `
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "missing pipelines", at: "", line: 2, yaml: `
version: 1
`},
	{name: "missing stages", at: "/pipelines/p", line: 5, yaml: `
version: 1
pipelines:
  p:
    description: nothing to do
`},
	{name: "missing stage id", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{type: gate, conditions: [{check: no_changes_requested}]}`)},
	{name: "missing stage type", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: s, conditions: [{check: no_changes_requested}]}`)},
	{name: "missing conditions", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: s, type: gate, on_pass: complete}`)},
	{name: "missing check", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{label: ok}]}`)},
	{name: "missing trigger event", at: "/pipelines/p/trigger", line: 5, yaml: `
version: 1
pipelines:
  p:
    trigger: {conditions: {base_branch: main}}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "missing label of label_present", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: oneStage(`{id: s, type: gate, conditions: [{check: label_present}]}`)},
	{name: "missing action", at: "/pipelines/p/stages/0", line: 6, yaml: oneStage(`{id: m, type: action, config: {method: squash}}`)},
	{name: "missing comment body", at: "/pipelines/p/stages/0/config", line: 6, yaml: oneStage(`{id: c, type: action, action: comment, config: {}}`)},
	{name: "missing agent dispatch", at: "/agents/rev", line: 4, yaml: `
version: 1
agents:
  rev: {workflow: review.yml}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
	{name: "missing workflow of a workflow agent", at: "/agents/rev", line: 4, yaml: `
version: 1
agents:
  rev: {dispatch: workflow}
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
}
