package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// actionsDispatch: https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event
// The dispatch is recorded (Dispatches); no workflow runs.
func actionsDispatch(s *Env, c *restCtx) (int, any) {
	var in struct {
		Ref              string         `json:"ref"`
		Inputs           map[string]any `json:"inputs"`
		ReturnRunDetails bool           `json:"return_run_details"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	if in.Ref == "" {
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\n\"ref\" wasn't supplied.")
	}
	if code, body, ok := checkDispatchInputs(in.Inputs); !ok {
		return code, body
	}
	if code, body, ok := s.checkWorkflowDispatch(c.repo, c.params["workflow_id"], in.Ref, in.Inputs); !ok {
		return code, body
	}
	d := s.StartRun(c.repo, world.Dispatch{Repo: c.repo.FullName(), Workflow: c.params["workflow_id"], Ref: in.Ref, Inputs: in.Inputs, Actor: c.login})
	s.DispatchLog = append(s.DispatchLog, d)
	if !in.ReturnRunDetails {
		return http.StatusNoContent, nil
	}
	id := d.RunID
	fn := c.repo.FullName()
	return http.StatusOK, shapes.Obj{"workflow_run_id": id, "run_url": s.APIURL("/repos/%s/actions/runs/%d", fn, id),
		"html_url": fmt.Sprintf("%s/%s/actions/runs/%d", shapes.HTMLBase, fn, id)}
}

// reposDispatch: https://docs.github.com/rest/repos/repos#create-a-repository-dispatch-event
func reposDispatch(s *Env, c *restCtx) (int, any) {
	var in struct {
		EventType     string         `json:"event_type"`
		ClientPayload map[string]any `json:"client_payload"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	if in.EventType == "" || len(in.EventType) > 100 {
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\n\"event_type\" must be 1 to 100 characters.")
	}
	if code, body, ok := checkClientPayload(in.ClientPayload); !ok {
		return code, body
	}
	s.DispatchLog = append(s.DispatchLog, world.Dispatch{Repo: c.repo.FullName(), EventType: in.EventType, Inputs: in.ClientPayload})
	return http.StatusNoContent, nil
}

// rateLimitGet: https://docs.github.com/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user
// Only the core and graphql resources are listed.
func rateLimitGet(s *Env, _ *restCtx) (int, any) {
	rest := 0
	for k, n := range s.Counts() {
		if k != "graphql" {
			rest += n
		}
	}
	reset := shapes.TimeZero.Unix() + 100*365*24*3600
	res := func(used int) shapes.Obj {
		return shapes.Obj{"limit": 5000, "used": used, "remaining": 5000 - used, "reset": reset}
	}
	return http.StatusOK, shapes.Obj{"resources": shapes.Obj{"core": res(rest), "graphql": res(s.Counts()["graphql"])}, "rate": res(rest)}
}

// issuesUpdate: https://docs.github.com/rest/issues/issues#update-an-issue (title, body, state,
// labels).
func issuesUpdate(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	var in struct {
		Title  *string         `json:"title"`
		Body   *string         `json:"body"`
		State  *string         `json:"state"`
		Labels json.RawMessage `json:"labels"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	now := s.Clock()
	if in.State != nil {
		switch *in.State {
		case "open":
			if !is.Merged {
				is.State, is.ClosedAt = "open", time.Time{}
			}
		case "closed":
			if is.State != "closed" {
				is.State, is.ClosedAt, is.ClosedBy = "closed", now, c.login
			}
		default:
			return http.StatusUnprocessableEntity, ErrorBody("Validation Failed: state is not open or closed")
		}
	}
	if in.Title != nil {
		is.Title = *in.Title
	}
	if in.Body != nil {
		is.Body = *in.Body
	}
	if in.Labels != nil {
		names, ok := labelNames(in.Labels)
		if !ok {
			return http.StatusUnprocessableEntity, ErrorBody("Validation Failed: labels")
		}
		if body, long := labelTooLong(names); long {
			return http.StatusUnprocessableEntity, body
		}
		is.Labels = nil
		for _, n := range names {
			is.Labels = world.LabelSet(c.repo, is.Labels, n)
		}
	}
	is.UpdatedAt = now
	return http.StatusOK, s.IssueJSON(c.repo, is)
}

// pullsRequestReviewers: https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request
func pullsRequestReviewers(s *Env, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, NotFound()
	}
	var in struct {
		Reviewers     []string `json:"reviewers"`
		TeamReviewers []string `json:"team_reviewers"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	if len(in.Reviewers) == 0 && len(in.TeamReviewers) == 0 {
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\nNo reviewers given.")
	}
	if slices.Contains(in.Reviewers, pr.Author) {
		return http.StatusUnprocessableEntity, ErrorBody("Review cannot be requested from pull request author.")
	}
	for _, r := range in.Reviewers {
		if s.PermissionOf(r) == "none" {
			return http.StatusUnprocessableEntity, ErrorBody("Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the " + c.repo.FullName() + " repository.")
		}
	}
	for _, r := range in.Reviewers {
		if !slices.Contains(pr.Requested, r) {
			pr.Requested = append(pr.Requested, r)
		}
	}
	for _, t := range in.TeamReviewers {
		if !slices.Contains(pr.Requested, "team:"+t) {
			pr.Requested = append(pr.Requested, "team:"+t)
		}
	}
	return http.StatusCreated, s.PRJSON(c.repo, pr)
}

// reactionsCreate: https://docs.github.com/rest/reactions/reactions#create-reaction-for-an-issue-comment
func reactionsCreate(s *Env, c *restCtx) (int, any) {
	cm := c.comment()
	if cm == nil {
		return http.StatusNotFound, NotFound()
	}
	var in struct{ Content string }
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	switch in.Content {
	case "+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes":
	default:
		return http.StatusUnprocessableEntity, ErrorBody("Validation Failed: content is not a reaction")
	}
	key := fmt.Sprintf("%d/%s/%s", cm.ID, c.login, in.Content)
	code, id := http.StatusOK, s.Reactions[key]
	if id == 0 {
		code, id = http.StatusCreated, s.NewID()
		s.Reactions[key] = id
	}
	return code, shapes.Obj{"id": id, "node_id": world.NodeID("Reaction", id), "user": s.UserJSON(c.login),
		"content": in.Content, "created_at": shapes.TS(s.Clock())}
}

// teamsListMembers: https://docs.github.com/rest/teams/members#list-team-members
func teamsListMembers(s *Env, c *restCtx) (int, any) {
	members, ok := s.Teams[c.params["org"]+"/"+c.params["team_slug"]]
	if !ok {
		return http.StatusNotFound, NotFound()
	}
	var out []any
	for _, m := range members {
		u := s.UserJSON(m).(shapes.Obj)
		u["role"], u["inherited"] = "member", false
		out = append(out, u)
	}
	return http.StatusOK, c.paginate(out)
}

// teamsGetMembership: https://docs.github.com/rest/teams/members#get-team-membership-for-a-user
func teamsGetMembership(s *Env, c *restCtx) (int, any) {
	team := c.params["org"] + "/" + c.params["team_slug"]
	user := c.params["username"]
	if !slices.ContainsFunc(s.Teams[team], func(m string) bool { return strings.EqualFold(m, user) }) {
		return http.StatusNotFound, NotFound()
	}
	return http.StatusOK, shapes.Obj{"role": "member", "state": "active",
		"url": s.APIURL("/orgs/%s/teams/%s/memberships/%s", c.params["org"], c.params["team_slug"], user)}
}
