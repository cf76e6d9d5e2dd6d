package actionplan

import (
	"fmt"
	"github.com/org/pipeline-action/engine/internal/variables"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/feedback"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/internal/react"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// NoPullRequestYet is what a gate or a merge of an issue run says while the run has no pull
// request.
const NoPullRequestYet = subject.NoPullRequestYet

// Stage plans the action of an action stage other than merge_pr, add_label,
// remove_label and a comment without templates, which the action stage plans itself.
func Stage(e *core.Eval, run *model.Run, stage *lang.Stage, eff model.Effect, env lang.Env) core.PlannedAction {
	c := stage.Config
	switch stage.Action {
	case lang.ActionComment:
		if c.Target != nil {
			to, err := render.Strict(c.Target, env)
			if err != nil {
				return core.PlannedAction{Err: err.Error()}
			}
			if why := commentTarget(e, run, strings.TrimSpace(to), &eff); why != "" {
				return core.PlannedAction{Err: why}
			}
		}
		body := c.Body
		if c.BodyTemplate != nil {
			var err error
			if body, err = render.Text(c.BodyTemplate, env); err != nil {
				return core.PlannedAction{Err: err.Error()}
			}
		}
		return planComment(e, run, eff, body)
	case lang.ActionLabel:
		return Label(e, eff, c.Labels, c.Remove)
	case lang.ActionCloseIssue:
		return closeIssue(e, eff, c.Issue, env)
	case lang.ActionCreateIssue:
		return planCreateIssue(e, run, eff, c.Title, c.BodyTemplate, c.Body, c.Labels, env)
	case lang.ActionNotify:
		return Notify(e, run, eff, c.Target, c.Message, env)
	case lang.ActionRequestReviewers:
		return planRequestReviewers(e, eff, c.Reviewers, c.Teams, c.Group)
	case lang.ActionAssign:
		return planAssign(e, eff, c.Assignees, c.Group)
	case lang.ActionSetVariable, lang.ActionSetShared:
		if c.Pipeline != "" {
			return dormant.PlanSet(e.Cfg, e.St, c.Pipeline, c.Value, env)
		}
		done, err := variables.Set(e.St, run, stage.Action, c.Name, c.Value, env)
		return core.PlannedAction{Done: done, Err: err}
	case lang.ActionUpdateBranch:
		eff.Method = c.UpdateMethod
		return planUpdateBranch(e, eff)
	}
	return core.PlannedAction{Err: fmt.Sprintf("not supported yet: action %q", stage.Action)}
}

// closeIssue closes the issue the template names. No value (a pull request that closes
// no issue: `{{ context.pr_number | linked_issue }}` is null), "" or 0 is nothing to do.
func closeIssue(e *core.Eval, eff model.Effect, t *lang.Template, env lang.Env) core.PlannedAction {
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
	eff.Kind, eff.Number = model.EffectCloseIssue, n
	if why := e.LinkedFromBody(n); why != "" {
		e.Logf("close_issue #%d: %s", n, why)
	}
	return core.PlannedAction{Eff: eff}
}

// Notify posts a comment on the pull request mentioning the target, once.
func Notify(e *core.Eval, run *model.Run, eff model.Effect, target, message *lang.Template, env lang.Env) core.PlannedAction {
	if target == nil {
		return core.PlannedAction{Err: "notify has no target"}
	}
	to, err := render.Strict(target, env)
	if err != nil {
		return core.PlannedAction{Err: err.Error()}
	}
	text := ""
	if message != nil {
		if text, err = render.Text(message, env); err != nil {
			return core.PlannedAction{Err: err.Error()}
		}
	}
	if strings.TrimSpace(text) == "" {
		text = fmt.Sprintf("Pipeline %q, run %s, is at stage %q.", run.Pipeline, run.ID, run.Stage)
	}
	if ag := react.NotifiedAgent(e.Cfg, to); ag != nil {
		if fb := feedback.ChangesRequested(e.Facts.PR); len(fb) > 0 {
			text += "\n\nChanges requested:\n" + markdown.InertText(feedback.Text(fb))
		}
		return planNotifyAgent(e, run, eff, ag, text, env)
	}
	who, err := mentions(e, to)
	if err != nil {
		return core.PlannedAction{Err: err.Error()}
	}
	body := text
	if len(who) > 0 {
		body = strings.Join(who, " ") + " " + text
	}
	return planComment(e, run, eff, body)
}

// commentTarget sets where a comment action with `target:` posts: "pr" is the subject in
// a pull request's run, and the run's pull request in an issue's run; "issue" is the
// subject in an issue's run.
func commentTarget(e *core.Eval, run *model.Run, target string, eff *model.Effect) string {
	switch {
	case target == "issue" && e.Issue != nil:
		eff.Number = e.Issue.Issue.Number
	case target == "pr" && e.Issue == nil:
	case target == "pr":
		pr := e.RunPR(run)
		if pr == nil {
			return NoPullRequestYet
		}
		eff.Number = pr.Number
	case target == "issue":
		// Only a sub-pipeline run on a pull request gets here: validate refuses it elsewhere.
		return `comment target "issue" in a pull request's run: there is no issue to comment on; use "pr"`
	default:
		return fmt.Sprintf(`comment target %q: a comment goes to "pr" or, in an issue's run, "issue"`, target)
	}
	return ""
}
