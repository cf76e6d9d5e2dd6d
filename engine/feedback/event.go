package feedback

import (
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// maxEventComment bounds the body of the event's comment a wake-up carries (workflow_dispatch
// inputs are bounded in all).
const maxEventComment = 4000

// EventComment is the comment of an issue_comment event — the comment the event names
// (model.Input.CommentID), as pr holds it, written by the event's actor — as the wake-up
// carries it ({id, body, user: {login}}), or nil. ok is false when the event names a
// comment whose text is not its author's word now (someone else edited it) or is not the
// actor's: nothing of it may reach an agent under its author's name. An event that names
// no comment carries the actor's newest.
func EventComment(pr *model.PullRequest, in model.Input) (comment map[string]any, ok bool) {
	if !strings.HasPrefix(in.Event, "issue_comment.") || in.Actor == "" {
		return nil, true
	}
	var found *model.IssueComment
	if in.CommentID != 0 {
		found = pr.Comment(in.CommentID)
	} else {
		for i := range pr.Comments {
			c := &pr.Comments[i]
			if strings.EqualFold(c.Author, in.Actor) && !c.Viewer && (found == nil || c.ID > found.ID) {
				found = c
			}
		}
	}
	switch {
	case found == nil:
		return nil, true
	case found.Viewer || found.Disowned() || !strings.EqualFold(found.Author, in.Actor):
		return nil, false
	}
	body := []rune(found.Body)
	if len(body) > maxEventComment {
		body = append(body[:maxEventComment], '…')
	}
	return map[string]any{"id": found.ID, "body": string(body), "user": map[string]any{"login": found.Author}}, true
}
