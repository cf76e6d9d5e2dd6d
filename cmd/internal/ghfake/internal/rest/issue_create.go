package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// issuesCreate: https://docs.github.com/rest/issues/issues#create-an-issue (title, body,
// labels, assignees). Labels and assignees are set only when the caller may push, as
// GitHub silently drops them otherwise.
func issuesCreate(s *Env, c *restCtx) (int, any) {
	var in struct {
		Title     any      `json:"title"`
		Body      *string  `json:"body"`
		Labels    []any    `json:"labels"`
		Assignees []string `json:"assignees"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	var title string
	switch t := in.Title.(type) {
	case string:
		title = t
	case float64:
		title = strconv.FormatFloat(t, 'f', -1, 64)
	}
	if strings.TrimSpace(title) == "" {
		return http.StatusUnprocessableEntity, ErrorBody("Validation Failed: title is missing")
	}
	var names []string
	for _, l := range in.Labels {
		if x, ok := l.(string); ok {
			names = append(names, x)
		} else if x, ok := l.(map[string]any); ok {
			name, _ := x["name"].(string)
			names = append(names, name)
		}
	}
	if body, long := labelTooLong(names); long && world.CanPush(s.PermissionOf(c.login)) {
		return http.StatusUnprocessableEntity, body
	}
	r := c.repo
	n := s.ClaimNumber(r, 0)
	now := s.Clock()
	is := &world.Issue{Repo: r, Number: n, ID: s.NewID(), Author: c.login, Title: title, State: "open", CreatedAt: now, UpdatedAt: now}
	if in.Body != nil {
		is.Body = *in.Body
	}
	if world.CanPush(s.PermissionOf(c.login)) {
		var labels []string
		for _, l := range in.Labels {
			switch x := l.(type) {
			case string:
				labels = world.LabelSet(r, labels, x)
			case map[string]any:
				if name, ok := x["name"].(string); ok {
					labels = world.LabelSet(r, labels, name)
				}
			}
		}
		s.Relabel(is, labels, c.login)
		for _, u := range in.Assignees {
			if _, ok := s.Users[u]; ok && !slices.ContainsFunc(is.Assignees, func(a string) bool { return strings.EqualFold(a, u) }) && len(is.Assignees) < 10 {
				is.Assignees = append(is.Assignees, u)
			}
		}
	}
	r.Issues[n] = is
	return http.StatusCreated, s.IssueJSON(r, is)
}
