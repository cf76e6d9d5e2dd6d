package ghfake

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
)

func init() {
	restHandlers["issues/create"] = issuesCreate
	restHandlers["issues/add-assignees"] = issuesAddAssignees
}

// issuesCreate: https://docs.github.com/rest/issues/issues#create-an-issue (title, body,
// labels, assignees). Labels and assignees are set only when the caller may push, as
// GitHub silently drops them otherwise.
func issuesCreate(s *Server, c *restCtx) (int, any) {
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
		return http.StatusUnprocessableEntity, errorBody("Validation Failed: title is missing")
	}
	r := c.repo
	n := s.claimNumber(r, 0)
	now := s.clock()
	is := &issue{repo: r, number: n, id: s.newID(), author: c.login, title: title, state: "open", createdAt: now, updatedAt: now}
	if in.Body != nil {
		is.body = *in.Body
	}
	if canPush(s.permission(c.login)) {
		var labels []string
		for _, l := range in.Labels {
			switch x := l.(type) {
			case string:
				labels = labelSet(r, labels, x)
			case map[string]any:
				if name, ok := x["name"].(string); ok {
					labels = labelSet(r, labels, name)
				}
			}
		}
		s.relabel(is, labels, c.login)
		is.assignees = s.assignable(in.Assignees, nil)
	}
	r.issues[n] = is
	return http.StatusCreated, s.issueJSON(r, is)
}

// issuesAddAssignees: https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue
// Users who cannot be assigned (no access to the repository) are silently left out, as on
// GitHub; an issue holds at most 10 assignees.
func issuesAddAssignees(s *Server, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, notFound()
	}
	var in struct {
		Assignees []string `json:"assignees"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	if canPush(s.permission(c.login)) {
		next := s.assignable(in.Assignees, is.assignees)
		if len(next) > 10 {
			return http.StatusUnprocessableEntity, errorBody("Validation Failed: an issue may have at most 10 assignees")
		}
		is.assignees = next
		is.updatedAt = s.clock()
	}
	return http.StatusCreated, s.issueJSON(c.repo, is)
}

// assignable adds to have the logins of users that may be assigned (anyone with access to
// the repository), once each.
func (s *Server) assignable(users, have []string) []string {
	out := append([]string(nil), have...)
	for _, u := range users {
		if permRank[s.permission(u)] < permRank["read"] {
			continue
		}
		dup := false
		for _, h := range out {
			dup = dup || strings.EqualFold(h, u)
		}
		if !dup {
			out = append(out, u)
		}
	}
	return out
}

// assigneesJSON lists the issue's assignees as users.
func (s *Server) assigneesJSON(is *issue) []any {
	out := []any{}
	for _, a := range is.assignees {
		out = append(out, s.userJSON(a))
	}
	return out
}

// Assignees returns the logins assigned to issue or pull request number, sorted.
func (s *Server) Assignees(repoName string, number int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sortedCopy(s.mustIssue(s.mustRepo(repoName), number).assignees)
}

// RequestedReviewers returns the reviews requested on pull request number: logins, and
// teams as "team:<slug>", sorted.
func (s *Server) RequestedReviewers(repoName string, number int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sortedCopy(s.mustPR(s.mustRepo(repoName), number).requested)
}

// Issues returns the issues (not pull requests) of repoName, by number.
func (s *Server) Issues(repoName string) []IssueView {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	var out []IssueView
	for _, is := range r.issues {
		if !is.isPR {
			out = append(out, IssueView{Number: is.number, State: is.state, Title: is.title, Labels: sortedCopy(is.labels), Body: is.body, Author: is.author})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

func firstOrNil(xs []any) any {
	if len(xs) == 0 {
		return nil
	}
	return xs[0]
}
