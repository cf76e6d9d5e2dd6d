package rest

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// GitHub's limits on commit statuses: a description of at most 140 characters, and at
// most 1000 statuses per commit and context.
// https://docs.github.com/rest/commits/statuses#create-a-commit-status
const (
	maxStatusDescription  = 140
	MaxStatusesPerContext = 1000
)

// reposCreateStatus: https://docs.github.com/rest/commits/statuses#create-a-commit-status
func reposCreateStatus(s *Env, c *restCtx) (int, any) {
	cm := c.repo.Commits[c.params["sha"]]
	if cm == nil {
		return http.StatusUnprocessableEntity, ErrorBody("No commit found for SHA: " + c.params["sha"])
	}
	var in struct {
		State       string  `json:"state"`
		Context     string  `json:"context"`
		Description *string `json:"description"`
		TargetURL   *string `json:"target_url"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return code, body
	}
	switch in.State {
	case "error", "failure", "pending", "success":
	default:
		return http.StatusUnprocessableEntity, ErrorBody("Validation Failed: state is not error, failure, pending or success")
	}
	if in.Context == "" {
		in.Context = "default"
	}
	if in.Description != nil && utf8.RuneCountInString(*in.Description) > maxStatusDescription {
		return http.StatusUnprocessableEntity, statusInvalid("description",
			fmt.Sprintf("description is too long (maximum is %d characters)", maxStatusDescription))
	}
	n := 0
	for _, st := range cm.Statuses {
		if st.Context == in.Context {
			n++
		}
	}
	if n >= MaxStatusesPerContext {
		return http.StatusUnprocessableEntity, statusInvalid("", "This SHA and context has reached the maximum number of statuses.")
	}
	st := s.AddStatus(cm, in.Context, in.State)
	st.Description, st.TargetURL, st.Creator = in.Description, in.TargetURL, c.login
	return http.StatusCreated, shapes.Obj{
		"id": st.ID, "node_id": world.NodeID("StatusContext", st.ID), "state": st.State, "context": st.Context,
		"description": in.Description, "target_url": in.TargetURL, "avatar_url": nil,
		"url": s.APIURL("/repos/%s/statuses/%s", c.repo.FullName(), cm.SHA), "creator": s.UserJSON(c.login),
		"created_at": shapes.TS(st.CreatedAt), "updated_at": shapes.TS(st.CreatedAt),
	}
}

// statusInvalid is GitHub's 422 body refusing a commit status.
func statusInvalid(field, message string) shapes.Obj {
	e := shapes.Obj{"resource": "Status", "code": "custom", "message": message}
	if field != "" {
		e["field"] = field
	}
	return shapes.Obj{"message": "Validation Failed", "documentation_url": DocsURL, "errors": []any{e}}
}
