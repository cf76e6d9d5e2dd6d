package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/wfyaml"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Agent dispatches as GitHub checks them: a workflow_dispatch names a workflow file that
// exists at the ref, has an `on: workflow_dispatch` trigger and declares every input it is
// given; a repository_dispatch's client_payload has at most 10 top-level properties; an
// assignee must be someone who can be assigned.

// checkWorkflowDispatch refuses a workflow_dispatch as GitHub does: 404 when the workflow
// file is not on the ref, 422 when it has no workflow_dispatch trigger or does not declare
// an input. The caller holds Mu.
func (s *Env) checkWorkflowDispatch(r *world.Repo, workflow, ref string, inputs map[string]any) (int, any, bool) {
	b := r.Branches[strings.TrimPrefix(ref, "refs/heads/")]
	var file *world.Blob
	if b != nil {
		file = b.Files[".github/workflows/"+workflow]
	}
	if file == nil {
		return http.StatusNotFound, NotFound(), false
	}
	declared, ok := wfyaml.DispatchInputs(file.Text)
	if !ok {
		return http.StatusUnprocessableEntity, ErrorBody("Workflow does not have 'workflow_dispatch' trigger"), false
	}
	var unexpected []string
	for k := range inputs {
		if !declared[k] {
			unexpected = append(unexpected, fmt.Sprintf("%q", k))
		}
	}
	if len(unexpected) > 0 {
		sort.Strings(unexpected)
		return http.StatusUnprocessableEntity, ErrorBody("Unexpected inputs provided: [" + strings.Join(unexpected, ", ") + "]"), false
	}
	return 0, nil, true
}

// checkClientPayload refuses a client_payload of more than 10 top-level properties, as
// GitHub does.
func checkClientPayload(p map[string]any) (int, any, bool) {
	if len(p) > 10 {
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\nNo more than 10 properties are allowed; " +
			fmt.Sprint(len(p)) + " were supplied."), false
	}
	if b, err := json.Marshal(p); err == nil && len(b) >= 64*1024 {
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\nclient_payload is too large."), false
	}
	return 0, nil, true
}

// issuesAddAssignees: https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue
// A login that cannot be assigned (no access to the repository) is silently left out, as
// GitHub does; at most 10 assignees.
func issuesAddAssignees(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	var in struct {
		Assignees []json.RawMessage `json:"assignees"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	for _, raw := range in.Assignees {
		var login string
		if json.Unmarshal(raw, &login) != nil {
			var o struct {
				Login string `json:"login"`
			}
			if json.Unmarshal(raw, &o) != nil || o.Login == "" {
				return http.StatusUnprocessableEntity, ErrorBody("Invalid request.")
			}
			login = o.Login
		}
		if _, ok := s.Users[login]; !ok && !strings.EqualFold(login, is.Author) {
			continue
		}
		if !slices.ContainsFunc(is.Assignees, func(a string) bool { return strings.EqualFold(a, login) }) && len(is.Assignees) < 10 {
			is.Assignees = append(is.Assignees, login)
			s.AssignLog = append(s.AssignLog, world.Assignment{Repo: c.repo.FullName(), Number: is.Number, Actor: c.login, Login: login})
		}
	}
	is.UpdatedAt = s.Clock()
	return http.StatusCreated, s.IssueJSON(c.repo, is)
}
