package ghapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/google/go-github/v60/github"
)

// People reads what the engine needs of people (engine.PeopleNeeded): the members of
// teams (Facts.TeamMembers), one REST list a team (teams/list-members-in-org), and repository permissions, one
// REST read a login (repos/get-collaborator-permission-level, whose role_name tells
// triage and maintain apart). GraphQL's authorAssociation is not a permission, so
// permissions are read here; the query of facts reads no team (it needs read:org for
// teams, and most subjects name none). A team GitHub does not show (404: it does not
// exist, or the token cannot see it) has no members as far as the engine knows, and the
// job log says so.
func (c *Client) People(ctx context.Context, needs model.Needs, warn func(string, ...any)) (teams map[string][]string, p model.People, err error) {
	teams = map[string][]string{}
	p = model.People{Permissions: map[string]string{}}
	for _, team := range needs.Teams {
		members, err := c.TeamMembers(ctx, team)
		if err != nil {
			var er *github.ErrorResponse
			if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
				warn("team %s is not visible to the action's token (it needs read access to the organization's members); it counts no one", team)
				teams[strings.ToLower(team)] = []string{}
				continue
			}
			if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden {
				warn("%s", teamRefused(team))
				teams[strings.ToLower(team)] = []string{}
				continue
			}
			return teams, p, err
		}
		teams[strings.ToLower(team)] = members
	}
	for _, login := range needs.Permissions {
		role, err := c.Permission(ctx, login)
		if err != nil {
			return teams, p, err
		}
		p.Permissions[strings.ToLower(login)] = role
	}
	return teams, p, nil
}

// teamRefused says why a team counts no one when GitHub refuses to list it: reading a
// team needs the organization permission members: read, which a workflow's GITHUB_TOKEN
// cannot hold (its permissions: block grants repository scopes only). Counting no one
// fails closed: an approval the action cannot attribute to the team does not count.
func teamRefused(team string) string {
	return fmt.Sprintf("team %s cannot be read with the action's token: GitHub needs the organization permission `members: read`, "+
		"which a workflow's GITHUB_TOKEN cannot have; give the action a GitHub App token with Members: read (the `token` input) "+
		"or name the people instead; until then the team counts no one", team)
}

// TeamMembers lists the members of team "org/slug".
// https://docs.github.com/en/rest/teams/members#list-team-members
func (c *Client) TeamMembers(ctx context.Context, team string) ([]string, error) {
	org, slug, ok := strings.Cut(team, "/")
	if !ok {
		return nil, fmt.Errorf("team %q is not org/slug", team)
	}
	var out []string
	opt := &github.TeamListTeamMembersOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		users, resp, err := c.rest.Teams.ListTeamMembersBySlug(ctx, org, slug, opt)
		if err != nil {
			return nil, fmt.Errorf("reading the members of team %s: %w", team, err)
		}
		for _, u := range users {
			out = append(out, u.GetLogin())
		}
		if resp == nil || resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

// Permission returns login's role on the repository: admin, maintain, write, triage,
// read or none.
// https://docs.github.com/en/rest/collaborators/collaborators#get-repository-permissions-for-a-user
func (c *Client) Permission(ctx context.Context, login string) (string, error) {
	req, err := c.rest.NewRequest("GET", fmt.Sprintf("repos/%s/%s/collaborators/%s/permission", c.Owner, c.Repo, url.PathEscape(login)), nil)
	if err != nil {
		return "", err
	}
	var lvl struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"` // admin, maintain, write, triage, read or a custom role
	}
	if _, err = c.rest.Do(ctx, req, &lvl); err != nil {
		var er *github.ErrorResponse
		if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
			return "none", nil // not a user GitHub knows
		}
		return "", fmt.Errorf("reading the permission of %s on %s/%s: %w", login, c.Owner, c.Repo, err)
	}
	switch r := strings.ToLower(lvl.RoleName); r {
	case "admin", "maintain", "write", "triage", "read":
		return r, nil
	}
	// A custom role: the legacy permission it maps to (admin, write, read or none).
	return strings.ToLower(lvl.Permission), nil
}

// issueComment is what the engine reads of a comment.
func issueComment(n commentNode) model.IssueComment {
	c := model.IssueComment{ID: int64(n.FullDatabaseId), Author: login(n.Author), Body: n.Body,
		CreatedAt: n.CreatedAt.Time, Viewer: n.ViewerDidAuthor}
	if n.Author != nil && n.Author.Typename == "Bot" {
		c.IsBot = true
	}
	if model.EditedByOther(n.LastEditedAt != nil || n.IncludesCreatedEdit, c.Author, login(n.Editor)) {
		c.EditedBy = cmp.Or(login(n.Editor), "ghost")
	}
	return c
}
