package load

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// loadStages loads stages (YAML list items at column 0) in a pipeline "p" of a config
// that defines agents a1, a2 and group g.
func loadStages(t *testing.T, stages string) *lang.Pipeline {
	t.Helper()
	src := "version: 1\nagents:\n  a1: {dispatch: workflow, workflow: a1.yml}\n  a2: {dispatch: label, label: go}\n" +
		"groups:\n  g: {users: [alice]}\nsettings:\n  webhooks: {allow: [hooks.example.com]}\n" +
		"pipelines:\n  sub:\n    stages:\n      - {id: s, type: delay, duration: 1m}\n" +
		"  p:\n    trigger: {event: pull_request.opened}\n    stages:\n      " +
		strings.ReplaceAll(strings.TrimSpace(stages), "\n", "\n      ") + "\n"
	cfg, err := Load("p.yaml", []byte(src), fakeRegistry{})
	require.NoError(t, err)
	return cfg.Pipeline("p")
}

func tsrc(x *lang.Template) string {
	if x == nil {
		return "<nil>"
	}
	return x.Src
}

func TestLoadStageTypes(t *testing.T) {
	tests := []struct {
		name   string
		stages string
		check  func(t *testing.T, p *lang.Pipeline)
	}{
		{
			name: "agent with every key",
			stages: `
- id: review
  type: agent
  agent: a1
  action: review
  continue_session: true
  condition: {any: [{labels_include: security}, {paths_match: ["src/**/auth/**", "*.go"]}]}
  skip_to: done
  timeout: 30m
  on_timeout: {then: fail}
  on_complete: done
  on_error: {retry: 2, then: escalate}
  config: {repo: org/api, branch_prefix: "feat/{{ context.n }}", n: 3}
  context: {why: "{{ trigger.action }}"}
  on_followup: {goto: review, max_iterations: 3, then: escalate, context: {feedback: "{{ stages.review.outputs.feedback }}"}}
  on_failed: fail
  on_approve: done
  on_reject: {goto: review, notify: g, label: [rejected]}
  on_revise: review
- {id: done, type: delay, duration: 1s}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				s := p.Stages[0]
				assert.Equal(t, lang.StageAgent, s.Type)
				assert.Equal(t, "a1", s.Agent)
				assert.Equal(t, "review", s.AgentAction)
				assert.True(t, s.ContinueSession)
				require.NotNil(t, s.Condition)
				require.Len(t, s.Condition.Any, 2)
				assert.Equal(t, []string{"security"}, s.Condition.Any[0].LabelsInclude)
				assert.Equal(t, []string{"src/**/auth/**", "*.go"}, s.Condition.Any[1].PathsMatch)
				assert.Equal(t, "done", s.SkipTo)
				assert.Equal(t, 30*time.Minute, s.Timeout)
				assert.Equal(t, lang.TargetFail, s.OnTimeout.Then)
				assert.Equal(t, "done", s.OnComplete)
				assert.Equal(t, 2, s.OnError.Retry)
				assert.Equal(t, lang.TargetEscalate, s.OnError.Then)
				require.Len(t, s.Values, 3)
				assert.Equal(t, "repo", s.Values[0].Key)
				assert.Equal(t, lang.KindString, s.Values[0].Value.Kind)
				assert.Nil(t, s.Values[0].Value.Template)
				assert.Equal(t, "feat/{{ context.n }}", tsrc(s.Values[1].Value.Template))
				assert.Equal(t, lang.KindInt, s.Values[2].Value.Kind)
				assert.Equal(t, "{{ trigger.action }}", tsrc(s.Context[0].Value.Template))
				f := s.Verdicts[lang.VerdictFollowup]
				require.NotNil(t, f)
				assert.Equal(t, "review", f.Goto)
				assert.Equal(t, 3, f.MaxIterations)
				assert.Equal(t, lang.TargetEscalate, f.Then)
				assert.Equal(t, "feedback", f.Context[0].Key)
				assert.Equal(t, lang.TargetFail, s.Verdicts[lang.VerdictFailed].Goto)
				assert.Equal(t, "done", s.Verdicts[lang.VerdictApprove].Goto)
				assert.Equal(t, "g", tsrc(s.Verdicts[lang.VerdictReject].Notify.Target))
				assert.Equal(t, []string{"rejected"}, s.Verdicts[lang.VerdictReject].Labels)
				assert.Equal(t, "review", s.Verdicts[lang.VerdictRevise].Goto)
			},
		},
		{
			name: "agent defaults",
			stages: `
- {id: a, type: agent, agent: a1, condition: "trigger.action == 'opened'", on_error: escalate}
- {id: b, type: agent, agent: a2}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				a, b := p.Stages[0], p.Stages[1]
				assert.Equal(t, "b", a.OnComplete)
				assert.Equal(t, "b", a.SkipTo)
				assert.Equal(t, "trigger.action == 'opened'", a.Condition.Expr.Src)
				assert.Equal(t, &lang.ErrorPolicy{Pos: lang.Pos{File: "p.yaml", Line: 16, Col: 92}, Then: lang.TargetEscalate}, a.OnError)
				assert.Equal(t, lang.TargetComplete, b.OnComplete)
				assert.Equal(t, "", b.SkipTo)
				assert.Nil(t, b.Verdicts)
			},
		},
		{
			name: "gate with any_of, on_fail when, on_timeout extend",
			stages: `
- id: g
  type: gate
  conditions:
    - check: no_changes_requested
    - any_of: [{check: human_approved}, {check: label_present, label: ok}]
  any_of:
    - {check: ci_status}
  on_fail:
    when: {check_failed: no_changes_requested}
    action: notify_and_wait
    notify: {target: "{{ context.head_branch | agent_for_branch }}", message: "changes requested"}
  timeout: 24h
  on_timeout: {notify: g, extend: 24h, max_extensions: 2}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				s := p.Stages[0]
				require.Len(t, s.Conditions, 1)
				require.Len(t, s.AnyOf, 2)
				assert.Equal(t, "human_approved", s.AnyOf[0][0].Check)
				assert.Equal(t, "label_present", s.AnyOf[0][1].Check)
				assert.Equal(t, "ci_status", s.AnyOf[1][0].Check)
				assert.Equal(t, "", s.OnFail)
				r := s.OnFailRule
				assert.Equal(t, "no_changes_requested", r.WhenCheckFailed)
				assert.Equal(t, "notify_and_wait", r.Action)
				assert.Equal(t, "{{ context.head_branch | agent_for_branch }}", tsrc(r.Notify.Target))
				assert.Equal(t, "changes requested", tsrc(r.Notify.Message))
				assert.Equal(t, "extend", s.OnTimeout.Then)
				assert.Equal(t, 24*time.Hour, s.OnTimeout.Extend)
				assert.Equal(t, 2, s.OnTimeout.MaxExtensions)
				assert.Equal(t, lang.TargetComplete, s.OnPass)
			},
		},
		{
			name: "gate on_fail loop",
			stages: `
- {id: a, type: agent, agent: a1}
- {id: g, type: gate, conditions: [{check: human_approved}], on_fail: {goto: a, max_iterations: 3, then: escalate}}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				r := p.Stages[1].OnFailRule
				assert.Equal(t, "a", r.Goto)
				assert.Equal(t, 3, r.MaxIterations)
				assert.Equal(t, lang.TargetEscalate, r.Then)
			},
		},
		{
			name: "human",
			stages: `
- id: h
  type: human
  description: approve it
  wait_for: approval
  from: g
  count: 2
  auto_assign: true
  notify:
    on_enter: "PR #{{ context.pr_number }} is ready"
    reminder: {interval: 24h, message: "still waiting", max_reminders: 3}
  timeout: 72h
  on_timeout: {label: needs-attention, notify: {target: g}, then: escalate}
- {id: c, type: human, wait_for: comment, pattern: "^/approve"}
- {id: l, type: human, wait_for: label, label: lgtm}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				h := p.Stages[0]
				assert.Equal(t, "approve it", h.Description)
				assert.Equal(t, lang.WaitApproval, h.WaitFor)
				assert.Equal(t, "g", h.From)
				assert.Equal(t, 2, h.Count)
				assert.True(t, h.AutoAssign)
				assert.Equal(t, "PR #{{ context.pr_number }} is ready", tsrc(h.OnEnter))
				assert.Equal(t, 24*time.Hour, h.Reminder.Interval)
				assert.Equal(t, "still waiting", tsrc(h.Reminder.Message))
				assert.Equal(t, 3, h.Reminder.MaxReminders)
				assert.Equal(t, 72*time.Hour, h.Timeout)
				assert.Equal(t, []string{"needs-attention"}, h.OnTimeout.Labels)
				assert.Equal(t, lang.TargetEscalate, h.OnTimeout.Then)
				assert.Equal(t, "c", h.OnComplete)
				assert.Equal(t, 1, p.Stages[1].Count)
				assert.Equal(t, "^/approve", p.Stages[1].Pattern)
				assert.Equal(t, "lgtm", p.Stages[2].WaitLabel)
			},
		},
		{
			name: "parallel",
			stages: `
- {id: impl, type: agent, agent: a1}
- id: par
  type: parallel
  join: 2
  branches:
    - {id: b1, agent: a1, action: review, condition: {labels_include: security}}
    - {id: b2, type: action, action: add_label, config: {label: x}}
    - {id: b3, type: pipeline, pipeline: sub, context: {pr: "{{ context.prs[0] }}"}}
  on_any_reject: {goto: impl, context: {review_feedback: "{{ branches.*.feedback }}"}}
- {id: any, type: parallel, join: any, branches: [{id: c1, agent: a2}]}
- {id: all, type: parallel, branches: [{id: d1, agent: a2}]}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				s := p.Stages[1]
				assert.Equal(t, "2", s.Join)
				assert.Equal(t, 2, s.JoinCount)
				require.Len(t, s.Branches, 3)
				assert.Equal(t, lang.StageAgent, s.Branches[0].Type)
				assert.Equal(t, "review", s.Branches[0].AgentAction)
				assert.Equal(t, []string{"security"}, s.Branches[0].Condition.LabelsInclude)
				assert.Equal(t, "", s.Branches[0].OnComplete)
				assert.Equal(t, lang.StageAction, s.Branches[1].Type)
				assert.Equal(t, []string{"x"}, s.Branches[1].Config.Labels)
				assert.Equal(t, "sub", s.Branches[2].Pipeline)
				assert.Equal(t, "{{ context.prs[0] }}", tsrc(s.Branches[2].Context[0].Value.Template))
				assert.Equal(t, "impl", s.OnAnyReject.Goto)
				assert.Equal(t, "{{ branches.*.feedback }}", tsrc(s.OnAnyReject.Context[0].Value.Template))
				assert.Equal(t, "any", s.OnComplete)
				assert.Equal(t, lang.JoinAny, p.Stages[2].Join)
				assert.Equal(t, lang.JoinAll, p.Stages[3].Join)
			},
		},
		{
			name: "delay",
			stages: `
- {id: d, type: delay, duration: 30s, poll: {interval: 5s, condition: "{{ github.pr.mergeable != null }}"}}
- {id: e, type: delay, duration: 7d, poll: {interval: 1h, condition: "true", on_ready: d}}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				d := p.Stages[0]
				assert.Equal(t, 30*time.Second, d.Duration)
				assert.Equal(t, 5*time.Second, d.Poll.Interval)
				assert.NotNil(t, d.Poll.Condition)
				assert.Equal(t, lang.PollSkipRemaining, d.Poll.OnReady)
				assert.Equal(t, "e", d.OnComplete)
				assert.Equal(t, 7*24*time.Hour, p.Stages[1].Duration)
				assert.Equal(t, "d", p.Stages[1].Poll.OnReady)
			},
		},
		{
			name: "webhook",
			stages: `
- id: w
  type: webhook
  request:
    url: "https://hooks.example.com/x/{{ context.pr_number }}"
    headers: {X-Token: abc}
    body: {pr_number: "{{ context.pr_number }}", tags: [a, 1], deep: {ok: true}}
  on_failure: escalate
- {id: v, type: webhook, request: {url: "https://hooks.example.com/", method: get}, expect: {status: 204}}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				w := p.Stages[0]
				assert.Equal(t, "https://hooks.example.com/x/{{ context.pr_number }}", tsrc(w.Request.URL))
				assert.Equal(t, "POST", w.Request.Method)
				assert.Equal(t, "X-Token", w.Request.Headers[0].Key)
				body := w.Request.Body
				require.Equal(t, lang.KindMap, body.Kind)
				assert.Equal(t, "{{ context.pr_number }}", tsrc(body.Map[0].Value.Template))
				assert.Equal(t, lang.KindList, body.Map[1].Value.Kind)
				assert.Equal(t, lang.KindInt, body.Map[1].Value.List[1].Kind)
				assert.Equal(t, lang.KindBool, body.Map[2].Value.Map[0].Value.Kind)
				assert.Equal(t, 200, w.ExpectStatus)
				assert.Equal(t, "v", w.OnSuccess)
				assert.Equal(t, lang.TargetEscalate, w.OnFailure)
				assert.Equal(t, "GET", p.Stages[1].Request.Method)
				assert.Equal(t, 204, p.Stages[1].ExpectStatus)
			},
		},
		{
			name: "pipeline",
			stages: `
- {id: r, type: pipeline, pipeline: sub, context: {pr_number: "{{ context.pr_number }}"}, on_error: {retry: 1}}`,
			check: func(t *testing.T, p *lang.Pipeline) {
				s := p.Stages[0]
				assert.Equal(t, "sub", s.Pipeline)
				assert.Equal(t, "pr_number", s.Context[0].Key)
				assert.Equal(t, 1, s.OnError.Retry)
				assert.Equal(t, lang.TargetFail, s.OnError.Then)
				assert.Equal(t, lang.TargetComplete, s.OnComplete)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, loadStages(t, tt.stages))
		})
	}
}
