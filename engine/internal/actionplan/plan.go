package actionplan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/lang"
)

// loginPattern is the spelling of a GitHub login (an app's bot account ends in [bot]);
// teamPattern an org/team-slug. A mention target that is neither is refused, so that a
// template over untrusted text cannot write arbitrary markup into a notification.
var (
	loginPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$`) })
	teamPattern  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)
	})
)

// planComment posts body on the pull request once: a comment whose marker is already on
// the pull request, or whose effect is recorded done, is not posted again.
func planComment(e *core.Eval, run *model.Run, eff model.Effect, body string) core.PlannedAction {
	if slices.Contains(run.Applied, eff.Key) || slices.Contains(e.Facts.PR.Posted, eff.Key) {
		return core.PlannedAction{Done: "comment posted"}
	}
	if strings.TrimSpace(body) == "" {
		return core.PlannedAction{Err: "the comment's body is empty"}
	}
	eff.Kind, eff.Body = model.EffectComment, body
	return core.PlannedAction{Eff: eff}
}

// Label adds and removes labels, asking only for what the pull request does not show
// done yet. A label both added and removed is an error.
func Label(e *core.Eval, eff model.Effect, add, remove []string) core.PlannedAction {
	pr := e.Facts.PR
	for _, l := range add {
		if core.HasLabel(remove, l) {
			return core.PlannedAction{Err: fmt.Sprintf("label %q is both added and removed", l)}
		}
	}
	eff.Kind = model.EffectLabel
	for _, l := range add {
		if !pr.HasLabel(l) && !core.HasLabel(eff.Labels, l) {
			eff.Labels = append(eff.Labels, l)
		}
	}
	for _, l := range remove {
		if on, ok := pr.Label(l); ok && !core.HasLabel(eff.Remove, on) {
			eff.Remove = append(eff.Remove, on)
		}
	}
	if len(eff.Labels) == 0 && len(eff.Remove) == 0 {
		return core.PlannedAction{Done: "labels as asked"}
	}
	return core.PlannedAction{Eff: eff}
}

// planCreateIssue opens an issue once (write-ahead; its body carries the effect's marker).
func planCreateIssue(e *core.Eval, run *model.Run, eff model.Effect, title, bodyT *lang.Template, body string, labels []string, env lang.Env) core.PlannedAction {
	if slices.Contains(run.Applied, eff.Key) {
		return core.PlannedAction{Done: "issue created"}
	}
	if title == nil {
		return core.PlannedAction{Err: "create_issue has no title"}
	}
	t, err := render.Text(title, env)
	if err != nil {
		return core.PlannedAction{Err: err.Error()}
	}
	if strings.TrimSpace(t) == "" {
		return core.PlannedAction{Err: "the new issue's title is empty"}
	}
	if bodyT != nil {
		if body, err = render.Text(bodyT, env); err != nil {
			return core.PlannedAction{Err: err.Error()}
		}
	}
	eff.Kind, eff.Title, eff.Body, eff.Labels, eff.Number = model.EffectCreateIssue, t, body, labels, 0
	return core.PlannedAction{Eff: eff}
}

// mentions resolves a notification target to the accounts to mention: a group's users
// and teams, or a login. "pr" (the pull request itself) mentions no one. An agent is
// notified through its dispatch (planNotifyAgent), not here.
func mentions(e *core.Eval, target string) ([]string, error) {
	target = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(target), "@"))
	switch {
	case target == "":
		return nil, fmt.Errorf("the notification's target is empty")
	case target == "pr":
		return nil, nil
	}
	if g := e.Cfg.Group(target); g != nil {
		var out []string
		for _, u := range g.Users {
			out = append(out, "@"+u)
		}
		for _, t := range g.Teams {
			out = append(out, "@"+t)
		}
		return out, nil
	}
	if loginPattern().MatchString(target) || teamPattern().MatchString(target) {
		return []string{"@" + target}, nil
	}
	return nil, fmt.Errorf("notification target %q is neither a group, an agent, a login nor a team", target)
}

// planRequestReviewers asks reviews of logins and teams (a group's users and teams; team
// slugs of the repository's own organisation). The pull request's author is left out:
// GitHub refuses a review request to the author.
func planRequestReviewers(e *core.Eval, eff model.Effect, reviewers, teams []string, group string) core.PlannedAction {
	pr := e.Facts.PR
	users := append([]string(nil), reviewers...)
	teamList := append([]string(nil), teams...)
	if group != "" {
		g := e.Cfg.Group(group)
		if g == nil {
			return core.PlannedAction{Err: fmt.Sprintf("group %q is not in the config", group)}
		}
		users = append(users, g.Users...)
		teamList = append(teamList, g.Teams...)
	}
	owner, _, _ := strings.Cut(e.Facts.Repo, "/")
	eff.Kind = model.EffectRequestReviewers
	for _, u := range users {
		switch {
		case !loginPattern().MatchString(u):
			return core.PlannedAction{Err: fmt.Sprintf("reviewer %q is not a login", u)}
		case strings.EqualFold(u, pr.Author):
			e.Logf("%s: %s is the pull request's author; no review is requested of them", eff.Key, u)
		case !model.HasLogin(eff.Reviewers, u):
			eff.Reviewers = append(eff.Reviewers, u)
		}
	}
	for _, t := range teamList {
		org, slug, found := strings.Cut(t, "/")
		if !found {
			org, slug = owner, t
		}
		if !strings.EqualFold(org, owner) {
			return core.PlannedAction{Err: fmt.Sprintf("team %q is not of %s: GitHub requests reviews only of the repository's own organisation's teams", t, owner)}
		}
		if !teamPattern().MatchString(org + "/" + slug) {
			return core.PlannedAction{Err: fmt.Sprintf("team %q is not a team slug", t)}
		}
		if !model.HasLogin(eff.Teams, slug) {
			eff.Teams = append(eff.Teams, slug)
		}
	}
	if len(eff.Reviewers) == 0 && len(eff.Teams) == 0 {
		return core.PlannedAction{Done: "no one to request a review of"}
	}
	return core.PlannedAction{Eff: eff}
}

// planAssign assigns logins (a group's users; teams cannot be assigned, and are left out).
func planAssign(e *core.Eval, eff model.Effect, assignees []string, group string) core.PlannedAction {
	users := append([]string(nil), assignees...)
	if group != "" {
		g := e.Cfg.Group(group)
		if g == nil {
			return core.PlannedAction{Err: fmt.Sprintf("group %q is not in the config", group)}
		}
		users = append(users, g.Users...)
		if len(g.Teams) > 0 {
			e.Logf("%s: teams of group %q cannot be assigned (GitHub assigns users); %s left out", eff.Key, group, strings.Join(g.Teams, ", "))
		}
	}
	eff.Kind = model.EffectAssign
	for _, u := range users {
		if !loginPattern().MatchString(u) {
			return core.PlannedAction{Err: fmt.Sprintf("assignee %q is not a login", u)}
		}
		if !model.HasLogin(eff.Assignees, u) {
			eff.Assignees = append(eff.Assignees, u)
		}
	}
	if len(eff.Assignees) == 0 {
		return core.PlannedAction{Done: "no one to assign"}
	}
	if len(eff.Assignees) > 10 {
		return core.PlannedAction{Err: fmt.Sprintf("%d assignees; GitHub takes at most 10 on an issue or pull request", len(eff.Assignees))}
	}
	return core.PlannedAction{Eff: eff}
}
