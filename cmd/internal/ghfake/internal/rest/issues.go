package rest

import (
	"encoding/json"
	"net/http"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// issuesGet: https://docs.github.com/rest/issues/issues#get-an-issue
func issuesGet(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	return http.StatusOK, s.IssueJSON(c.repo, is)
}

// labelNames reads a labels body: {"labels": ["a"]}, {"labels": [{"name": "a"}]}, ["a"] or
// [{"name": "a"}], the forms GitHub accepts.
func labelNames(body []byte) ([]string, bool) {
	var wrapped struct {
		Labels json.RawMessage `json:"labels"`
	}
	raw := json.RawMessage(body)
	if json.Unmarshal(body, &wrapped) == nil && wrapped.Labels != nil {
		raw = wrapped.Labels
	}
	var names []string
	if json.Unmarshal(raw, &names) == nil {
		return names, true
	}
	var objs []struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(raw, &objs) != nil {
		return nil, false
	}
	for _, o := range objs {
		names = append(names, o.Name)
	}
	return names, true
}

// issuesAddLabels: https://docs.github.com/rest/issues/labels#add-labels-to-an-issue
func issuesAddLabels(s *Env, c *restCtx) (int, any) { return putLabels(s, c, true) }

// issuesSetLabels: https://docs.github.com/rest/issues/labels#set-labels-for-an-issue
func issuesSetLabels(s *Env, c *restCtx) (int, any) { return putLabels(s, c, false) }

// putLabels gives the issue the labels of the body: added to its own (add), or instead of them.
func putLabels(s *Env, c *restCtx, add bool) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	names, ok := labelNames(c.body)
	switch {
	case add && (!ok || len(names) == 0):
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\nNo labels given.")
	case !ok:
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request.")
	}
	if body, long := labelTooLong(names); long {
		return http.StatusUnprocessableEntity, body
	}
	var labels []string
	if add {
		labels = append(labels, is.Labels...)
	}
	for _, n := range names {
		labels = world.LabelSet(c.repo, labels, n)
	}
	s.Relabel(is, labels, c.login)
	is.UpdatedAt = s.Clock()
	return http.StatusOK, s.LabelsJSON(c.repo, is.Labels)
}

// issuesRemoveLabel: https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue
func issuesRemoveLabel(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	labels, removed := world.LabelDel(append([]string(nil), is.Labels...), c.params["name"])
	if removed == "" {
		return http.StatusNotFound, ErrorBody("Label does not exist")
	}
	s.Relabel(is, labels, c.login)
	is.UpdatedAt = s.Clock()
	return http.StatusOK, s.LabelsJSON(c.repo, is.Labels)
}

// issuesRemoveAllLabels: https://docs.github.com/rest/issues/labels#remove-all-labels-from-an-issue
func issuesRemoveAllLabels(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	s.Relabel(is, nil, c.login)
	return http.StatusNoContent, nil
}

// issuesListLabels: https://docs.github.com/rest/issues/labels#list-labels-for-an-issue
func issuesListLabels(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	return http.StatusOK, c.paginate(s.LabelsJSON(c.repo, is.Labels))
}

// commentBody reads {"body": "..."}; a missing body is GitHub's 422.
func commentBody(c *restCtx) (string, int, any) {
	var in struct {
		Body *string `json:"body"`
	}
	if code, body, ok := c.decode(&in); !ok {
		return "", code, body
	}
	if in.Body == nil {
		return "", http.StatusUnprocessableEntity, ErrorBody("Invalid request.\n\n\"body\" wasn't supplied.")
	}
	if len(*in.Body) > 65536 {
		return "", http.StatusUnprocessableEntity, ErrorBody("Validation Failed: body is too long (maximum is 65536 characters)")
	}
	return *in.Body, 0, nil
}

// issuesCreateComment: https://docs.github.com/rest/issues/comments#create-an-issue-comment
func issuesCreateComment(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	body, code, errBody := commentBody(c)
	if errBody != nil {
		return code, errBody
	}
	cm := s.AddComment(c.repo, is, c.login, body)
	return http.StatusCreated, s.CommentJSON(c.repo, cm)
}

// findComment resolves {comment_id} within the repository.
func (c *restCtx) comment() *world.Comment {
	id, ok := c.num("comment_id")
	if !ok {
		return nil
	}
	for _, cm := range c.repo.Comments {
		if cm.ID == id {
			return cm
		}
	}
	return nil
}

// issuesUpdateComment: https://docs.github.com/rest/issues/comments#update-an-issue-comment
func issuesUpdateComment(s *Env, c *restCtx) (int, any) {
	cm := c.comment()
	if cm == nil {
		return http.StatusNotFound, NotFound()
	}
	body, code, errBody := commentBody(c)
	if errBody != nil {
		return code, errBody
	}
	cm.Edit(c.login, body, s.Clock())
	return http.StatusOK, s.CommentJSON(c.repo, cm)
}

// issuesGetComment: https://docs.github.com/rest/issues/comments#get-an-issue-comment
func issuesGetComment(s *Env, c *restCtx) (int, any) {
	cm := c.comment()
	if cm == nil {
		return http.StatusNotFound, NotFound()
	}
	return http.StatusOK, s.CommentJSON(c.repo, cm)
}

// issuesDeleteComment: https://docs.github.com/rest/issues/comments#delete-an-issue-comment
func issuesDeleteComment(s *Env, c *restCtx) (int, any) {
	cm := c.comment()
	if cm == nil {
		return http.StatusNotFound, NotFound()
	}
	kept := c.repo.Comments[:0]
	for _, x := range c.repo.Comments {
		if x != cm {
			kept = append(kept, x)
		}
	}
	c.repo.Comments = kept
	c.repo.Deleted = append(c.repo.Deleted, cm)
	return http.StatusNoContent, nil
}

// issuesListComments: https://docs.github.com/rest/issues/comments#list-issue-comments
func issuesListComments(s *Env, c *restCtx) (int, any) {
	is := c.issue(false)
	if is == nil {
		return http.StatusNotFound, NotFound()
	}
	var out []any
	for _, cm := range c.repo.Comments {
		if cm.Issue == is.Number {
			out = append(out, s.CommentJSON(c.repo, cm))
		}
	}
	return http.StatusOK, c.paginate(out)
}
