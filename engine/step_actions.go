package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// The actions beyond merging, labelling and commenting: close_issue, create_issue, label
// ({add, remove}), notify, request_reviewers and assign, and comment bodies with templates.
// Each becomes one Effect of its own kind. Posting (a comment, a notification, a new issue)
// cannot be undone and GitHub does not deduplicate it, so it is write-ahead; labels,
// assignees, review requests and closing an issue are idempotent and are not.

// Effect kinds of these actions.
const (
	EffectLabel            EffectKind = "label" // Labels added, Remove removed
	EffectCloseIssue       EffectKind = "close_issue"
	EffectCreateIssue      EffectKind = "create_issue"
	EffectRequestReviewers EffectKind = "request_reviewers"
	EffectAssign           EffectKind = "assign"
)

// plannedAction is what an action (of an action stage, or of an on_complete/on_error list)
// asks of GitHub, before it becomes an Effect: done says the action has nothing to do
// (and why), err that it cannot be done (and why).
type plannedAction struct {
	eff  Effect
	done string
	err  string
}

// loginPattern is the spelling of a GitHub login (an app's bot account ends in [bot]);
// teamPattern an org/team-slug. A mention target that is neither is refused, so that a
// template over untrusted text cannot write arbitrary markup into a notification.
var (
	loginPattern = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$`)
	teamPattern  = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)
)

// templateEnv is what templates of run's actions read: what env gives (the run's context,
// variables, stages' outputs, github, run, subject, agents) and `trigger` as the facts tell
// it (trigger.pull_request.number, .title, .user.login, .head.ref, .base.ref, …).
func (e *eval) templateEnv(p *lang.Pipeline, run *Run) lang.Env {
	env := e.env(p, run)
	env["trigger"] = triggerEnv(e.facts)
	return env
}

// renderStrict fills t from env; an expression that fails or has no value (null) is an
// error that names it, rather than text with a hole in it.
func renderStrict(t *lang.Template, env lang.Env) (string, error) { return render(t, env, false, true) }

// renderText fills t for text the action posts (a comment, a notification, an issue): as
// renderStrict, and what the expressions give — often a contributor's words, a title, a
// branch, an agent's outputs — goes through the one renderer of posted text (InertText,
// markdown.go): no HTML (so no forged marker of the action's own), no link, image,
// @mention or #reference. The config's own text is kept live.
func renderText(t *lang.Template, env lang.Env) (string, error) { return render(t, env, true, true) }

// renderMessage is renderText where a value that is null renders as nothing (the messages
// of human stages and dispatch comments, which say what they can rather than fail).
func renderMessage(t *lang.Template, env lang.Env) (string, error) {
	return render(t, env, true, false)
}

func render(t *lang.Template, env lang.Env, inert, strict bool) (string, error) {
	var b strings.Builder
	for _, part := range t.Parts() {
		if part.Expr == nil {
			b.WriteString(part.Text)
			continue
		}
		v, err := part.Expr.Eval(env)
		if err != nil {
			return "", fmt.Errorf("template at %s: %v", t.Pos, err)
		}
		if v == nil && strict {
			return "", fmt.Errorf("template at %s: {{ %s }} has no value", t.Pos, strings.TrimSpace(part.Expr.Src))
		}
		if inert {
			b.WriteString(InertText(lang.RenderValue(v)))
		} else {
			b.WriteString(lang.RenderValue(v))
		}
	}
	return b.String(), nil
}

// planStageAction plans the action of an action stage other than merge_pr, add_label,
// remove_label and a comment without templates (see action).
func (e *eval) planStageAction(p *lang.Pipeline, run *Run, stage *lang.Stage, eff Effect) plannedAction {
	env := e.templateEnv(p, run)
	c := stage.Config
	switch stage.Action {
	case lang.ActionComment:
		if c.Target != nil {
			to, err := renderStrict(c.Target, env)
			if err != nil {
				return plannedAction{err: err.Error()}
			}
			if why := e.commentTarget(run, strings.TrimSpace(to), &eff); why != "" { // step_issue.go
				return plannedAction{err: why}
			}
		}
		body := c.Body
		if c.BodyTemplate != nil {
			var err error
			if body, err = renderText(c.BodyTemplate, env); err != nil {
				return plannedAction{err: err.Error()}
			}
		}
		return e.planComment(run, eff, body)
	case lang.ActionLabel:
		return e.planLabel(eff, c.Labels, c.Remove)
	case lang.ActionCloseIssue:
		return e.planCloseIssue(eff, c.Issue, env)
	case lang.ActionCreateIssue:
		return e.planCreateIssue(run, eff, c.Title, c.BodyTemplate, c.Body, c.Labels, env)
	case lang.ActionNotify:
		return e.planNotify(run, eff, c.Target, c.Message, env)
	case lang.ActionRequestReviewers:
		return e.planRequestReviewers(eff, c.Reviewers, c.Teams, c.Group)
	case lang.ActionAssign:
		return e.planAssign(eff, c.Assignees, c.Group)
	case lang.ActionSetVariable, lang.ActionSetShared: // step_variables.go
		return e.planSetVariable(run, stage.Action, c.Name, c.Value, env)
	case lang.ActionUpdateBranch: // step_merge_refusal.go
		return e.planUpdateBranch(eff)
	}
	return plannedAction{err: fmt.Sprintf("not supported yet: action %q", stage.Action)}
}

// planComment posts body on the pull request once: a comment whose marker is already on
// the pull request, or whose effect is recorded done, is not posted again.
func (e *eval) planComment(run *Run, eff Effect, body string) plannedAction {
	if contains(run.Applied, eff.Key) || contains(e.facts.PR.Posted, eff.Key) {
		return plannedAction{done: "comment posted"}
	}
	if strings.TrimSpace(body) == "" {
		return plannedAction{err: "the comment's body is empty"}
	}
	eff.Kind, eff.Body = EffectComment, body
	return plannedAction{eff: eff}
}

// planLabel adds and removes labels, asking only for what the pull request does not show
// done yet. A label both added and removed is an error.
func (e *eval) planLabel(eff Effect, add, remove []string) plannedAction {
	pr := e.facts.PR
	for _, l := range add {
		if hasLabel(remove, l) {
			return plannedAction{err: fmt.Sprintf("label %q is both added and removed", l)}
		}
	}
	eff.Kind = EffectLabel
	for _, l := range add {
		if !pr.HasLabel(l) && !hasLabel(eff.Labels, l) {
			eff.Labels = append(eff.Labels, l)
		}
	}
	for _, l := range remove {
		if on, ok := pr.Label(l); ok && !hasLabel(eff.Remove, on) {
			eff.Remove = append(eff.Remove, on)
		}
	}
	if len(eff.Labels) == 0 && len(eff.Remove) == 0 {
		return plannedAction{done: "labels as asked"}
	}
	return plannedAction{eff: eff}
}

// planCloseIssue closes the issue the template names. No value (a pull request that closes
// no issue: `{{ context.pr_number | linked_issue }}` is null), "" or 0 is nothing to do.
func (e *eval) planCloseIssue(eff Effect, t *lang.Template, env lang.Env) plannedAction {
	if t == nil {
		return plannedAction{err: `close_issue names no issue`}
	}
	v, err := t.Value(env)
	if err != nil {
		return plannedAction{err: fmt.Sprintf("template at %s: %v", t.Pos, err)}
	}
	text := strings.TrimPrefix(strings.TrimSpace(lang.RenderValue(v)), "#")
	if text == "" || text == "0" {
		return plannedAction{done: fmt.Sprintf("no issue to close (%s gives none: the pull request closes no issue)", strings.TrimSpace(t.Src))}
	}
	n, err := strconv.Atoi(text)
	if err != nil || n <= 0 {
		return plannedAction{err: fmt.Sprintf("close_issue: %q is not an issue number", text)}
	}
	if n == e.facts.PR.Number && e.issue == nil {
		return plannedAction{err: fmt.Sprintf("close_issue: #%d is the pull request itself, not an issue", n)}
	}
	eff.Kind, eff.Number = EffectCloseIssue, n
	if why := e.linkedFromBody(n); why != "" { // step_close_issue.go
		e.logf("close_issue #%d: %s", n, why)
	}
	return plannedAction{eff: eff}
}

// planCreateIssue opens an issue once (write-ahead; its body carries the effect's marker).
func (e *eval) planCreateIssue(run *Run, eff Effect, title, bodyT *lang.Template, body string, labels []string, env lang.Env) plannedAction {
	if contains(run.Applied, eff.Key) {
		return plannedAction{done: "issue created"}
	}
	if title == nil {
		return plannedAction{err: "create_issue has no title"}
	}
	t, err := renderText(title, env)
	if err != nil {
		return plannedAction{err: err.Error()}
	}
	if strings.TrimSpace(t) == "" {
		return plannedAction{err: "the new issue's title is empty"}
	}
	if bodyT != nil {
		if body, err = renderText(bodyT, env); err != nil {
			return plannedAction{err: err.Error()}
		}
	}
	eff.Kind, eff.Title, eff.Body, eff.Labels, eff.Number = EffectCreateIssue, t, body, labels, 0
	return plannedAction{eff: eff}
}

// mentions resolves a notification target to the accounts to mention: a group's users
// and teams, or a login. "pr" (the pull request itself) mentions no one. An agent is
// notified through its dispatch (planNotifyAgent), not here.
func (e *eval) mentions(target string) ([]string, error) {
	target = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(target), "@"))
	switch {
	case target == "":
		return nil, fmt.Errorf("the notification's target is empty")
	case target == "pr":
		return nil, nil
	}
	if g := e.cfg.Group(target); g != nil {
		var out []string
		for _, u := range g.Users {
			out = append(out, "@"+u)
		}
		for _, t := range g.Teams {
			out = append(out, "@"+t)
		}
		return out, nil
	}
	if loginPattern.MatchString(target) || teamPattern.MatchString(target) {
		return []string{"@" + target}, nil
	}
	return nil, fmt.Errorf("notification target %q is neither a group, an agent, a login nor a team", target)
}

// planNotify posts a comment on the pull request mentioning the target, once.
func (e *eval) planNotify(run *Run, eff Effect, target, message *lang.Template, env lang.Env) plannedAction {
	if target == nil {
		return plannedAction{err: "notify has no target"}
	}
	to, err := renderStrict(target, env)
	if err != nil {
		return plannedAction{err: err.Error()}
	}
	text := ""
	if message != nil {
		if text, err = renderText(message, env); err != nil {
			return plannedAction{err: err.Error()}
		}
	}
	if strings.TrimSpace(text) == "" {
		text = fmt.Sprintf("Pipeline %q, run %s, is at stage %q.", run.Pipeline, run.ID, run.Stage)
	}
	if ag := e.notifiedAgent(to); ag != nil {
		return e.planNotifyAgent(run, eff, ag, text, env) // step_notify_agent.go
	}
	who, err := e.mentions(to)
	if err != nil {
		return plannedAction{err: err.Error()}
	}
	body := text
	if len(who) > 0 {
		body = strings.Join(who, " ") + " " + text
	}
	return e.planComment(run, eff, body)
}

// planRequestReviewers asks reviews of logins and teams (a group's users and teams; team
// slugs of the repository's own organisation). The pull request's author is left out:
// GitHub refuses a review request to the author.
func (e *eval) planRequestReviewers(eff Effect, reviewers, teams []string, group string) plannedAction {
	pr := e.facts.PR
	users := append([]string(nil), reviewers...)
	teamList := append([]string(nil), teams...)
	if group != "" {
		g := e.cfg.Group(group)
		if g == nil {
			return plannedAction{err: fmt.Sprintf("group %q is not in the config", group)}
		}
		users = append(users, g.Users...)
		teamList = append(teamList, g.Teams...)
	}
	owner, _, _ := strings.Cut(e.facts.Repo, "/")
	eff.Kind = EffectRequestReviewers
	for _, u := range users {
		switch {
		case !loginPattern.MatchString(u):
			return plannedAction{err: fmt.Sprintf("reviewer %q is not a login", u)}
		case strings.EqualFold(u, pr.Author):
			e.logf("%s: %s is the pull request's author; no review is requested of them", eff.Key, u)
		case !containsFold(eff.Reviewers, u):
			eff.Reviewers = append(eff.Reviewers, u)
		}
	}
	for _, t := range teamList {
		org, slug, found := strings.Cut(t, "/")
		if !found {
			org, slug = owner, t
		}
		if !strings.EqualFold(org, owner) {
			return plannedAction{err: fmt.Sprintf("team %q is not of %s: GitHub requests reviews only of the repository's own organisation's teams", t, owner)}
		}
		if !teamPattern.MatchString(org + "/" + slug) {
			return plannedAction{err: fmt.Sprintf("team %q is not a team slug", t)}
		}
		if !containsFold(eff.Teams, slug) {
			eff.Teams = append(eff.Teams, slug)
		}
	}
	if len(eff.Reviewers) == 0 && len(eff.Teams) == 0 {
		return plannedAction{done: "no one to request a review of"}
	}
	return plannedAction{eff: eff}
}

// planAssign assigns logins (a group's users; teams cannot be assigned, and are left out).
func (e *eval) planAssign(eff Effect, assignees []string, group string) plannedAction {
	users := append([]string(nil), assignees...)
	if group != "" {
		g := e.cfg.Group(group)
		if g == nil {
			return plannedAction{err: fmt.Sprintf("group %q is not in the config", group)}
		}
		users = append(users, g.Users...)
		if len(g.Teams) > 0 {
			e.logf("%s: teams of group %q cannot be assigned (GitHub assigns users); %s left out", eff.Key, group, strings.Join(g.Teams, ", "))
		}
	}
	eff.Kind = EffectAssign
	for _, u := range users {
		if !loginPattern.MatchString(u) {
			return plannedAction{err: fmt.Sprintf("assignee %q is not a login", u)}
		}
		if !containsFold(eff.Assignees, u) {
			eff.Assignees = append(eff.Assignees, u)
		}
	}
	if len(eff.Assignees) == 0 {
		return plannedAction{done: "no one to assign"}
	}
	if len(eff.Assignees) > 10 {
		return plannedAction{err: fmt.Sprintf("%d assignees; GitHub takes at most 10 on an issue or pull request", len(eff.Assignees))}
	}
	return plannedAction{eff: eff}
}

func containsFold(xs []string, x string) bool {
	for _, y := range xs {
		if strings.EqualFold(x, y) {
			return true
		}
	}
	return false
}

// newActionStage reports whether the action of stage is planned by planStageAction.
func newActionStage(stage *lang.Stage) bool {
	switch stage.Action {
	case lang.ActionLabel, lang.ActionCloseIssue, lang.ActionCreateIssue, lang.ActionNotify, lang.ActionRequestReviewers, lang.ActionAssign,
		lang.ActionSetVariable, lang.ActionSetShared, lang.ActionUpdateBranch:
		return true
	case lang.ActionComment:
		return stage.Config.BodyTemplate != nil || stage.Config.Target != nil
	}
	return false
}

// stageActionPlanned asks for the effect planned for an action stage, or moves the stage on
// when there is nothing to do or it cannot be done. It reports whether the run moved.
func (e *eval) stageActionPlanned(p *lang.Pipeline, run *Run, stage *lang.Stage, eff Effect) (moved, asked bool, out Effect) {
	plan := e.planStageAction(p, run, stage, eff)
	switch {
	case strings.HasPrefix(plan.err, "not supported yet"):
		run.Stages[stage.ID].Status = StageFailed
		e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("%s (stage %q at %s)", plan.err, stage.ID, stage.Pos))
		return false, false, Effect{}
	case plan.err != "":
		return e.actionFailed(run, stage, plan.err), false, Effect{}
	case plan.done != "":
		e.logf("run %s: %s: %s", run.ID, stage.ID, plan.done)
		e.leave(run, stage, StageSucceeded, stage.OnSuccess, plan.done)
		return true, false, Effect{}
	}
	return false, true, plan.eff
}
