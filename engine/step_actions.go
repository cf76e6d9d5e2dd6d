package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/internal/feedback"
	"github.com/org/pipeline-action/engine/internal/markdown"
	"github.com/org/pipeline-action/engine/lang"
)

// The actions beyond merging, labelling and commenting: close_issue, create_issue, label
// ({add, remove}), notify, request_reviewers and assign, and comment bodies with templates.
// Each becomes one Effect of its own kind. Posting (a comment, a notification, a new issue)
// cannot be undone and GitHub does not deduplicate it, so it is write-ahead; labels,
// assignees, review requests and closing an issue are idempotent and are not.

// templateEnv is what templates of run's actions read: what env gives (the run's context,
// variables, stages' outputs, github, run, subject, agents) and `trigger` as the facts tell
// it (trigger.pull_request.number, .title, .user.login, .head.ref, .base.ref, …).
func (e *eval) templateEnv(p *lang.Pipeline, run *Run) lang.Env {
	env := e.env(p, run)
	env["trigger"] = core.TriggerEnv(e.Facts)
	return env
}

// planStageAction plans the action of an action stage other than merge_pr, add_label,
// remove_label and a comment without templates (see action).
func (e *eval) planStageAction(p *lang.Pipeline, run *Run, stage *lang.Stage, eff Effect) core.PlannedAction {
	env := e.templateEnv(p, run)
	c := stage.Config
	switch stage.Action {
	case lang.ActionComment:
		if c.Target != nil {
			to, err := core.RenderStrict(c.Target, env)
			if err != nil {
				return core.PlannedAction{Err: err.Error()}
			}
			if why := e.commentTarget(run, strings.TrimSpace(to), &eff); why != "" { // step_issue.go
				return core.PlannedAction{Err: why}
			}
		}
		body := c.Body
		if c.BodyTemplate != nil {
			var err error
			if body, err = core.RenderText(c.BodyTemplate, env); err != nil {
				return core.PlannedAction{Err: err.Error()}
			}
		}
		return e.PlanComment(run, eff, body)
	case lang.ActionLabel:
		return e.PlanLabel(eff, c.Labels, c.Remove)
	case lang.ActionCloseIssue:
		return e.planCloseIssue(eff, c.Issue, env)
	case lang.ActionCreateIssue:
		return e.PlanCreateIssue(run, eff, c.Title, c.BodyTemplate, c.Body, c.Labels, env)
	case lang.ActionNotify:
		return e.planNotify(run, eff, c.Target, c.Message, env)
	case lang.ActionRequestReviewers:
		return e.PlanRequestReviewers(eff, c.Reviewers, c.Teams, c.Group)
	case lang.ActionAssign:
		return e.PlanAssign(eff, c.Assignees, c.Group)
	case lang.ActionSetVariable, lang.ActionSetShared: // step_variables.go
		if c.Pipeline != "" {
			return dormant.PlanSet(e.Cfg, e.St, c.Pipeline, c.Value, env)
		}
		return e.PlanSetVariable(run, stage.Action, c.Name, c.Value, env)
	case lang.ActionUpdateBranch: // step_merge_refusal.go
		return e.PlanUpdateBranch(eff)
	}
	return core.PlannedAction{Err: fmt.Sprintf("not supported yet: action %q", stage.Action)}
}

// planCloseIssue closes the issue the template names. No value (a pull request that closes
// no issue: `{{ context.pr_number | linked_issue }}` is null), "" or 0 is nothing to do.
func (e *eval) planCloseIssue(eff Effect, t *lang.Template, env lang.Env) core.PlannedAction {
	if t == nil {
		return core.PlannedAction{Err: `close_issue names no issue`}
	}
	v, err := t.Value(env)
	if err != nil {
		return core.PlannedAction{Err: fmt.Sprintf("template at %s: %v", t.Pos, err)}
	}
	text := strings.TrimPrefix(strings.TrimSpace(lang.RenderValue(v)), "#")
	if text == "" || text == "0" {
		return core.PlannedAction{Done: fmt.Sprintf("no issue to close (%s gives none: the pull request closes no issue)", strings.TrimSpace(t.Src))}
	}
	n, err := strconv.Atoi(text)
	if err != nil || n <= 0 {
		return core.PlannedAction{Err: fmt.Sprintf("close_issue: %q is not an issue number", text)}
	}
	if n == e.Facts.PR.Number && e.Issue == nil {
		return core.PlannedAction{Err: fmt.Sprintf("close_issue: #%d is the pull request itself, not an issue", n)}
	}
	eff.Kind, eff.Number = EffectCloseIssue, n
	if why := e.LinkedFromBody(n); why != "" { // internal/core/step_close_issue.go
		e.Logf("close_issue #%d: %s", n, why)
	}
	return core.PlannedAction{Eff: eff}
}

// planNotify posts a comment on the pull request mentioning the target, once.
func (e *eval) planNotify(run *Run, eff Effect, target, message *lang.Template, env lang.Env) core.PlannedAction {
	if target == nil {
		return core.PlannedAction{Err: "notify has no target"}
	}
	to, err := core.RenderStrict(target, env)
	if err != nil {
		return core.PlannedAction{Err: err.Error()}
	}
	text := ""
	if message != nil {
		if text, err = core.RenderText(message, env); err != nil {
			return core.PlannedAction{Err: err.Error()}
		}
	}
	if strings.TrimSpace(text) == "" {
		text = fmt.Sprintf("Pipeline %q, run %s, is at stage %q.", run.Pipeline, run.ID, run.Stage)
	}
	if ag := e.NotifiedAgent(to); ag != nil {
		if fb := feedback.ChangesRequested(e.Facts.PR); len(fb) > 0 {
			text += "\n\nChanges requested:\n" + markdown.InertText(feedback.Text(fb))
		}
		return e.PlanNotifyAgent(run, eff, ag, text, env) // step_notify_agent.go
	}
	who, err := e.Mentions(to)
	if err != nil {
		return core.PlannedAction{Err: err.Error()}
	}
	body := text
	if len(who) > 0 {
		body = strings.Join(who, " ") + " " + text
	}
	return e.PlanComment(run, eff, body)
}

// stageActionPlanned asks for the effect planned for an action stage, or moves the stage on
// when there is nothing to do or it cannot be done. It reports whether the run moved.
func (e *eval) stageActionPlanned(p *lang.Pipeline, run *Run, stage *lang.Stage, eff Effect) (moved, asked bool, out Effect) {
	plan := e.planStageAction(p, run, stage, eff)
	switch {
	case strings.HasPrefix(plan.Err, "not supported yet"):
		run.Stages[stage.ID].Status = StageFailed
		e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("%s (stage %q at %s)", plan.Err, stage.ID, stage.Pos))
		return false, false, Effect{}
	case plan.Err != "":
		return e.actionFailed(run, stage, plan.Err), false, Effect{}
	case plan.Done != "":
		e.Logf("run %s: %s: %s", run.ID, stage.ID, plan.Done)
		e.leave(run, stage, StageSucceeded, stage.OnSuccess, plan.Done)
		return true, false, Effect{}
	}
	return false, true, plan.Eff
}
