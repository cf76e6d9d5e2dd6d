// Package pipelineaction_test holds the tests of what lies at the repository's root:
// pipelines.schema.json, the JSON Schema editors use for .github/pipelines.yaml, kept in
// step with the loader (engine/lang/load): every example config passes both, and every
// mistake that is a schema matter is rejected by both.
package pipelineaction_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"
)

const (
	schemaFile = "pipelines.schema.json"
	schemaID   = "https://raw.githubusercontent.com/org/pipeline-action/main/pipelines.schema.json"
)

// exampleGlobs name every config that must pass both the schema and the loader.
var exampleGlobs = []string{
	"examples/*/pipelines.yaml",
	"engine/lang/load/testdata/reference/*.yaml",
	"engine/lang/load/testdata/load/*.yaml",
}

// rejectMarker on the first line of a golden error case says its mistake is a schema matter.
const rejectMarker = "# schema: reject"

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaFile)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err, "%s is not JSON", schemaFile)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	require.NoError(t, c.AddResource(schemaID, doc))
	sch, err := c.Compile(schemaID)
	require.NoError(t, err, "%s does not compile", schemaFile)
	return sch
}

// instance decodes YAML into the generic value JSON Schema validates.
func instance(src []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// jsonable turns the maps yaml.v3 makes for non-string keys into JSON objects.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

func validate(sch *jsonschema.Schema, src []byte) error {
	v, err := instance(src)
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// loaderVerdict loads src. It returns the load errors, and those among them that only
// show the loader is still growing into the language: a construct "not supported yet", a
// check the schema knows that no gate registers, or a parameter of such a check that its
// gate does not read yet.
func loaderVerdict(t *testing.T, file string, src []byte) (all, pending lang.ErrorList) {
	t.Helper()
	_, err := engine.Load(file, src, gates.Default())
	if err == nil {
		return nil, nil
	}
	var list lang.ErrorList
	if !errors.As(err, &list) {
		return lang.ErrorList{{Message: err.Error(), Kind: "?"}}, nil
	}
	params := checkParams(t)
	for _, e := range list {
		if e.Kind == "unsupported" {
			pending = append(pending, e)
		} else if m := unknownCheck.FindStringSubmatch(e.Message); m != nil && params[m[1]] != nil {
			pending = append(pending, e)
		} else if m := unknownParam.FindStringSubmatch(e.Message); m != nil && params[m[2]][m[1]] {
			pending = append(pending, e)
		}
	}
	return list, pending
}

var (
	unknownCheck = regexp.MustCompile(`^unknown check "([^"]+)"`)
	unknownParam = regexp.MustCompile(`^unknown key "([^"]+)" for check "([^"]+)"`)
)

// checkParams reads from the schema the checks it knows and the parameters of each.
func checkParams(t *testing.T) map[string]map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var doc struct {
		Defs struct {
			Check struct {
				AllOf []struct {
					If struct {
						Properties struct {
							Check struct {
								Const string `json:"const"`
							} `json:"check"`
						} `json:"properties"`
					} `json:"if"`
					Then struct {
						Properties map[string]any `json:"properties"`
					} `json:"then"`
				} `json:"allOf"`
			} `json:"check"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	out := map[string]map[string]bool{}
	for _, c := range doc.Defs.Check.AllOf {
		name := c.If.Properties.Check.Const
		out[name] = map[string]bool{}
		for k := range c.Then.Properties {
			out[name][k] = true
		}
	}
	require.NotEmpty(t, out, "no checks found in the schema's $defs/check")
	return out
}

func examples(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range exampleGlobs {
		m, err := filepath.Glob(g)
		require.NoError(t, err)
		files = append(files, m...)
	}
	sort.Strings(files)
	require.NotEmpty(t, files, "no example configs found")
	return files
}

func TestSchemaCompiles(t *testing.T) {
	compile(t)
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var top struct {
		Schema string `json:"$schema"`
		ID     string `json:"$id"`
	}
	require.NoError(t, json.Unmarshal(raw, &top))
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", top.Schema)
	assert.Equal(t, schemaID, top.ID)
}

// TestSchemaDescribesEveryProperty keeps editors' hover text complete.
func TestSchemaDescribesEveryProperty(t *testing.T) {
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				for name, p := range props {
					m, _ := p.(map[string]any)
					if _, ok := m["description"]; !ok && declares(p) {
						t.Errorf("%s/properties/%s has no description", path, name)
					}
				}
			}
			for k, e := range x {
				walk(path+"/"+k, e)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		}
	}
	walk("#", doc)
}

// declares reports whether the property schema p says what the property is, rather than
// narrowing one declared elsewhere (`true`, `false`, `{"const": …}` in an if-then, `{"minLength": 1}`).
func declares(p any) bool {
	m, ok := p.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "enum"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// TestExamplesPassSchemaAndLoader: every example config is valid for both. Constructs the
// loader refuses as "not supported yet" are reported and the loader half is skipped.
func TestExamplesPassSchemaAndLoader(t *testing.T) {
	sch := compile(t)
	for _, file := range examples(t) {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.NoError(t, validate(sch, src), "the schema rejects an example the language allows")
			all, pending := loaderVerdict(t, file, src)
			if len(all) > 0 && len(all) == len(pending) {
				t.Skipf("the schema accepts it; the loader does not accept these constructs yet:\n%s", pending)
			}
			assert.Empty(t, all, "the loader rejects an example the schema accepts")
		})
	}
}

// everything uses every construct of the language at least once; both must accept it.
const everything = `
version: 1
settings:
  max_nesting: 4
  state_branch: pipeline-action/state
  allow_commands: true
  webhooks: {allow: [api.example.com]}
  chatops: {permission: maintain, from: [maintainers]}
agents:
  test-coverage: {dispatch: workflow, workflow: agent-test-coverage.yml, ref: main}
  pr-review:     {dispatch: repository_dispatch, event_type: pr-review}
  feat-dev:      {dispatch: comment, body: "@claude implement this"}
  triage:        {dispatch: label, label: needs-triage}
  copilot:       {dispatch: assign, assignee: copilot}
groups:
  maintainers: {users: [alice, bob], teams: [acme/maintainers]}
  solo: {users: carol}
pipelines:
  everything:
    description: every construct
    display_name: Everything
    priority: 10
    scope: single-pr
    trigger:
      event: pull_request.opened
      conditions: {base_branch: main, label: ready, labels: [a, b], draft: false, author: dev}
      if: "trigger.pull_request.number > 0"
    on_events:
      pull_request.synchronize: {action: invalidate_and_restart, invalidate: [review], restart_from: review}
      pull_request.edited: {action: invalidate_and_restart, invalidate: review}
      pull_request.reopened: {action: invalidate_and_restart}
      pull_request_review.submitted: {action: reevaluate_gates}
      pull_request.closed: {action: cancel}
      pull_request.labeled: {action: notify, notify: {target: maintainers, message: "labelled"}}
      pull_request.unlabeled: {action: notify, target: maintainers, message: "unlabelled"}
      pull_request.ready_for_review: {action: notify, notify: maintainers}
      issue_comment.created: {action: wake_agent, agent: feat-dev, message: "{{ trigger.comment.body }}"}
      check_suite.completed: {action: reevaluate_gates}
      status: {action: reevaluate_gates}
    context:
      pr_number: "{{ trigger.pull_request.number }}"
      head_branch: "{{ trigger.pull_request.head.ref }}"
      prs: []
      nested: {a: 1, b: [true, null]}
    variables:
      limit: 3
    stages:
      - id: review
        type: agent
        description: review
        agent: pr-review
        action: review
        continue_session: true
        condition:
          any:
            - labels_include: security
            - paths_match: ["src/**/auth/**", "**/security/**"]
            - all: [{labels_include: [a, b]}, "trigger.pull_request.draft == false"]
        skip_to: gate
        timeout: 30m
        on_timeout: {notify: maintainers, label: slow, then: escalate}
        on_complete: gate
        on_error: {retry: 2, then: escalate}
        config: {repo: acme/api, branch_prefix: "feat/{{ context.pr_number }}"}
        context: {focus: security}
        on_revise: {goto: review, max_iterations: 3, then: escalate, context: {feedback: "{{ stages.review.outputs.feedback }}"}}
        on_followup: review
        on_reject: {goto: review, max_iterations: 2, then: fail, notify: {target: maintainers, message: "rejected"}, label: [rejected]}
        on_approve: gate
        on_failed: fail
      - id: gate
        type: gate
        conditions:
          - check: human_approved
            count: 1
          - check: no_changes_requested
          - check: ci_status
            expect: success
            checks: [test, lint]
            optional: true
          - check: label_present
            label: approved
          - any_of:
              - check: pr_approvals_met
                scope: agents
              - check: expr
                expr: "context.pr_number != null"
        any_of:
          - check: label_present
            label: ok
          - check: label_present
            label: fine
            pr: all
          - check: no_changes_requested
            pr: "{{ context.prs[0] }}"
          - check: human_approved
            pr: all
        on_pass: human
        on_fail:
          when: {check_failed: no_changes_requested}
          action: notify_and_wait
          notify: {target: "{{ context.head_branch | agent_for_branch }}", message: "Changes requested on PR #{{ context.pr_number }}"}
        timeout: 48h
        on_timeout: {then: extend, extend: 24h, max_extensions: 2, notify: maintainers}
      - id: human
        type: human
        description: approve
        wait_for: approval
        from: maintainers
        count: 1
        notify:
          on_enter: "PR #{{ context.pr_number }} ready"
          reminder: {interval: 24h, message: "still waiting", max_reminders: 3}
        auto_assign: true
        timeout: 72h
        on_timeout: {label: needs-attention, notify: {target: maintainers, message: "waited 72h"}, then: escalate}
        on_complete: comment-wait
      - id: comment-wait
        type: human
        wait_for: comment
        pattern: "^/approve"
        on_complete: label-wait
      - id: label-wait
        type: human
        wait_for: label
        label: lgtm
        condition: "context.pr_number != null"
        skip_to: fan-out
      - id: fan-out
        type: parallel
        join: 2
        branches:
          - id: b-agent
            agent: test-coverage
            action: review
            condition: {labels_include: tests}
            timeout: 1h
            config: {x: 1}
            context: {y: 2}
          - id: b-action
            type: action
            action: add_label
            config: {label: reviewed}
          - id: b-pipeline
            type: pipeline
            pipeline: sub
            context: {pr_number: "{{ context.pr_number }}"}
            timeout: 2h
        on_complete: wait
        on_any_reject: {goto: review, context: {review_feedback: "{{ branches.*.feedback }}"}}
        timeout: 3h
        on_timeout: fail
      - id: wait
        type: delay
        duration: 1d12h
        poll: {interval: 5s, condition: "{{ github.pr.mergeable != null }}", on_ready: skip_remaining_delay}
        on_complete: hook
      - id: hook
        type: webhook
        request:
          url: "https://api.example.com/validate"
          method: post
          headers: {X-Token: abc, X-Num: 1}
          body: {pr_number: "{{ context.pr_number }}", list: [1, 2]}
        expect: {status: 201}
        timeout: 30s
        on_timeout: fail
        on_success: label
        on_failure: escalate
      - id: label
        type: action
        action: label
        config: {add: [a], remove: b}
      - id: note
        type: action
        action: comment
        config: {body: "hi {{ context.pr_number }}", target: pr}
      - id: tell
        type: action
        action: notify
        config: {target: maintainers, message: hello}
      - id: ask
        type: action
        action: request_reviewers
        config: {reviewers: [alice], teams: [maintainers], group: maintainers}
      - id: give
        type: action
        action: assign
        config: {assignees: alice, group: maintainers}
      - id: open
        type: action
        action: create_issue
        config: {title: "follow up", body: "for #{{ context.pr_number }}", labels: [later]}
      - id: close
        type: action
        action: close_issue
        config: {issue: "{{ context.pr_number | linked_issue }}"}
      - id: add
        type: action
        action: add_label
        config: {labels: [x, y]}
      - id: remove
        type: action
        action: remove_label
        config: {label: x}
      - id: keep
        type: action
        action: set_variable
        config: {name: tries, value: "{{ variables.tries }}"}
      - id: share
        type: action
        action: set_shared
        config: {name: reviewed_by, value: {by: "{{ run.pipeline }}", at: [1, 2]}}
      - id: merge
        type: action
        action: merge_pr
        config: {method: squash, delete_branch: true}
        on_success: complete
        on_failure: fail
        on_conflict: {notify: {target: maintainers}, label: merge-conflict, then: escalate}
        on_ci_failure: {goto: gate, max_iterations: 2, then: escalate}
    on_complete:
      - close_issue: "{{ context.pr_number | linked_issue }}"
      - close_issue: 12
      - comment: {target: pr, message: "Merged to main."}
      - comment: done
      - label: done
      - label: [a, b]
      - notify: maintainers
      - notify: {target: maintainers, message: hi}
      - create_issue: {title: t, body: b, labels: [x]}
      - request_reviewers: alice
      - request_reviewers: [alice, bob]
      - request_reviewers: {group: maintainers}
      - assign: alice
      - assign: {assignees: [alice], group: solo}
      - set_variable: {name: done, value: true}
      - set_shared: {name: last_title, value: "{{ shared.last_title }}"}
    on_error:
      - label: needs-human
      - notify: maintainers
  sub:
    stages:
      - id: s
        type: agent
        agent: triage
        on_error: escalate
      - id: p
        type: pipeline
        pipeline: leaf
        context: {a: 1}
        condition: "true"
        skip_to: complete
        timeout: 1h
        on_timeout: fail
        on_complete: complete
        on_error: {retry: 1}
  leaf:
    scope: multi-pr
    stages:
      - id: x
        type: gate
        any_of: [{check: ci_status, expect: failure}, {check: human_approved, from: maintainers}]
`

func TestEveryConstructPassesBoth(t *testing.T) {
	sch := compile(t)
	src := []byte(strings.TrimPrefix(everything, "\n"))
	assert.NoError(t, validate(sch, src), "the schema rejects a construct the language allows")
	all, pending := loaderVerdict(t, "everything.yaml", src)
	if len(all) > 0 && len(all) == len(pending) {
		t.Skipf("the schema accepts it; the loader does not accept these constructs yet:\n%s", pending)
	}
	assert.Empty(t, all, "the loader rejects a construct the schema accepts")
}

// invalid holds mistakes that are a schema matter, each in a config that is otherwise
// valid. at is the JSON pointer of the value the schema rejects (says, a phrase of its
// message, where the pointer it reports is not the value's: propertyNames); line is where
// the loader reports it, counting the comment line the test puts first.
var invalid = []struct {
	name string
	yaml string
	at   string
	says string
	line int
}{
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
	{name: "unknown gate stage key", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], on_passs: complete}
`},
	{name: "key of another stage type", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], on_success: complete}
`},
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
	{name: "unknown merge config key", at: "/pipelines/p/stages/0/config", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: m, type: action, action: merge_pr, config: {strategy: squash}}
`},
	{name: "unknown check parameter", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: label_present, label: ok, colour: red}]}
`},
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
	{name: "conditions is a string", at: "/pipelines/p/stages/0/conditions", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: no_changes_requested}
`},
	{name: "draft is a string", at: "/pipelines/p/trigger/conditions/draft", line: 7, yaml: `
version: 1
pipelines:
  p:
    trigger:
      event: pull_request.opened
      conditions: {draft: "no"}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "count is a string", at: "/pipelines/p/stages/0/conditions/0/count", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: human_approved, count: two}]}
`},
	{name: "count is zero", at: "/pipelines/p/stages/0/conditions/0/count", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: human_approved, count: 0}]}
`},
	{name: "optional is a string", at: "/pipelines/p/stages/0/conditions/0/optional", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested, optional: maybe}]}
`},
	{name: "bad merge method", at: "/pipelines/p/stages/0/config/method", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: m, type: action, action: merge_pr, config: {method: fast-forward}}
`},
	{name: "bad ci_status expect", at: "/pipelines/p/stages/0/conditions/0/expect", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: ci_status, expect: green}]}
`},
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
	{name: "bad wait_for", at: "/pipelines/p/stages/0/wait_for", line: 8, yaml: `
version: 1
groups:
  maintainers: {users: [alice]}
pipelines:
  p:
    stages:
      - {id: h, type: human, wait_for: thumbs-up, from: maintainers}
`},
	{name: "timeout without a unit", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 30}
`},
	{name: "timeout in weeks", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 2w}
`},
	{name: "timeout in words", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: one day}
`},
	{name: "delay duration with a space", at: "/pipelines/p/stages/0/duration", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: d, type: delay, duration: 5 m}
`},
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
	{name: "missing stage id", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {type: gate, conditions: [{check: no_changes_requested}]}
`},
	{name: "missing stage type", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, conditions: [{check: no_changes_requested}]}
`},
	{name: "missing conditions", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, on_pass: complete}
`},
	{name: "missing check", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{label: ok}]}
`},
	{name: "missing trigger event", at: "/pipelines/p/trigger", line: 5, yaml: `
version: 1
pipelines:
  p:
    trigger: {conditions: {base_branch: main}}
    stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]
`},
	{name: "missing label of label_present", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: label_present}]}
`},
	{name: "missing action", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: m, type: action, config: {method: squash}}
`},
	{name: "missing comment body", at: "/pipelines/p/stages/0/config", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: c, type: action, action: comment, config: {}}
`},
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
	{name: "unknown check", at: "/pipelines/p/stages/0/conditions/0/check", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: tests_green}]}
`},
	{name: "misspelt check", at: "/pipelines/p/stages/0/conditions/0/check", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: human_aproved}]}
`},
	{name: "unknown stage type", at: "/pipelines/p/stages/0/type", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: wait, conditions: [{check: no_changes_requested}]}
`},
	{name: "unknown action", at: "/pipelines/p/stages/0/action", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: m, type: action, action: rebase_pr}
`},
	{name: "set_shared without a value", at: "/pipelines/p/stages/0/config", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: m, type: action, action: set_shared, config: {name: x}}
`},
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
	{name: "invalid stage id", at: "/pipelines/p/stages/0/id", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: Ready Gate, type: gate, conditions: [{check: no_changes_requested}]}
`},
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
	{name: "empty conditions", at: "/pipelines/p/stages/0/conditions", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: []}
`},
	{name: "max_iterations zero", at: "/pipelines/p/stages/1/on_fail/max_iterations", line: 7, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: a, type: gate, conditions: [{check: ci_status}]}
      - {id: b, type: gate, conditions: [{check: no_changes_requested}], on_fail: {goto: a, max_iterations: 0, then: fail}}
`},
	{name: "timeout of zero", at: "/pipelines/p/stages/0/timeout", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 0s}
`},
	{name: "extend without a duration", at: "/pipelines/p/stages/0/on_timeout", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], timeout: 1h, on_timeout: {then: extend}}
`},
	{name: "max_iterations without goto", at: "/pipelines/p/stages/0/on_fail", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], on_fail: {max_iterations: 2, then: fail}}
`},
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
	{name: "on_timeout without timeout", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: no_changes_requested}], on_timeout: fail}
`},
	{name: "label of a human stage waiting for approval", at: "/pipelines/p/stages/0/label", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: h, type: human, wait_for: approval, label: lgtm}
`},
	{name: "missing wait_for", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: h, type: human, count: 2}
`},
	{name: "pattern that does not compile", at: "/pipelines/p/stages/0/pattern", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: h, type: human, wait_for: comment, pattern: "(approve"}
`},
	{name: "relative webhook url", at: "/pipelines/p/stages/0/request/url", line: 7, yaml: `
version: 1
settings: {webhooks: {allow: [api.example.com]}}
pipelines:
  p:
    stages:
      - {id: w, type: webhook, request: {url: /validate}}
`},
	{name: "notify action without config", at: "/pipelines/p/stages/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: n, type: action, action: notify}
`},
	{name: "on_conflict of a comment", at: "/pipelines/p/stages/0/on_conflict", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: c, type: action, action: comment, config: {body: hi}, on_conflict: fail}
`},
	{name: "unknown branch type", at: "/pipelines/p/stages/0/branches/0/type", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: par, type: parallel, branches: [{id: b, type: gate, conditions: [{check: ci_status}]}]}
`},
	{name: "join in words", at: "/pipelines/p/stages/0/join", line: 7, yaml: `
version: 1
agents: {rev: {dispatch: label, label: review}}
pipelines:
  p:
    stages:
      - {id: par, type: parallel, join: most, branches: [{id: b, agent: rev}]}
`},
	{name: "checks and workflows both", at: "/pipelines/p/stages/0/conditions/0", line: 6, yaml: `
version: 1
pipelines:
  p:
    stages:
      - {id: s, type: gate, conditions: [{check: ci_status, checks: [test], workflows: [test]}]}
`},
	{name: "max_nesting zero", at: "/settings/max_nesting", line: 4, yaml: `
version: 1
settings:
  max_nesting: 0
pipelines:
  p: {stages: [{id: s, type: gate, conditions: [{check: no_changes_requested}]}]}
`},
}

// TestInvalidRejectedByBoth: every schema-matter mistake is an error for both the schema
// and the loader, at the same place.
func TestInvalidRejectedByBoth(t *testing.T) {
	sch := compile(t)
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(strings.TrimPrefix(tc.yaml, "\n"))
			src = append([]byte("# "+tc.name+"\n"), src...)
			err := validate(sch, src)
			if assert.Error(t, err, "the schema accepts it") {
				var ve *jsonschema.ValidationError
				if assert.ErrorAs(t, err, &ve) {
					if tc.says != "" {
						assert.Contains(t, ve.Error(), tc.says, "the schema rejects it for another reason")
					} else {
						assert.Contains(t, locations(ve), tc.at, "the schema rejects it elsewhere:\n%s", ve)
					}
				}
			}
			all, pending := loaderVerdict(t, "case.yaml", src)
			if !assert.NotEmpty(t, all, "the loader accepts it") {
				return
			}
			var lines []int
			for _, e := range all {
				if !slices.Contains(pending, e) {
					lines = append(lines, e.Pos.Line)
				}
			}
			if len(lines) == 0 {
				t.Skipf("the loader rejects it only because it does not support the construct yet:\n%s", pending)
			}
			assert.Contains(t, lines, tc.line, "the loader rejects it elsewhere:\n%s", all)
		})
	}
}

// locations returns the instance locations of the innermost errors, as JSON pointers.
func locations(ve *jsonschema.ValidationError) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			p := ""
			for _, tok := range e.InstanceLocation {
				p += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
			}
			out = append(out, p)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// TestGoldenSchemaRejects: golden error cases marked "# schema: reject" on their first line
// are rejected by the schema as well as by the loader.
func TestGoldenSchemaRejects(t *testing.T) {
	sch := compile(t)
	files, err := filepath.Glob("engine/lang/load/testdata/err/*.yaml")
	require.NoError(t, err)
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		first, _, _ := strings.Cut(string(src), "\n")
		if strings.TrimSpace(first) != rejectMarker {
			continue
		}
		n++
		t.Run(filepath.Base(file), func(t *testing.T) {
			assert.Error(t, validate(sch, src), "the schema accepts it")
			all, _ := loaderVerdict(t, file, src)
			assert.NotEmpty(t, all, "the loader accepts it")
		})
	}
	t.Logf("%d golden cases marked %q", n, rejectMarker)
}
