package pipelineaction_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// everything uses every construct of the language at least once; both must accept it.
const everything = `
version: 1
settings:
  max_nesting: 4
  state_branch: pipeline-action/state
  allow_commands: true
  status_check: true
  webhooks: {allow: [api.example.com]}
  chatops: {permission: maintain, from: [maintainers]}
agents:
  test-coverage: {dispatch: workflow, workflow: agent-test-coverage.yml, ref: main}
  pr-review:     {dispatch: repository_dispatch, event_type: pr-review}
  feat-dev:      {dispatch: comment, body: "@claude implement this"}
  triage:        {dispatch: label, label: needs-triage, login: "triage-agent[bot]"}
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
        outputs_schema:
          type: object
          required: [risk]
          properties:
            risk: {type: string, enum: [low, high], description: how risky}
            files: {type: array, items: {type: string}}
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
              - check: http
                url: "https://status.example.com/api/health"
                expect: 'outputs.status == 200 && outputs.json.state == "green"'
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
	all, _ := loaderVerdict(t, "everything.yaml", src)
	assert.Empty(t, all, "the loader rejects a construct the schema accepts")
}
