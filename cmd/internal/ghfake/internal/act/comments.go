package act

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
)

// EditComment replaces the body of comment id as user, as GitHub lets anyone with write
// access edit any comment: the author stays, the editor and lastEditedAt change. It returns
// issue_comment/edited, sent by user. It panics when there is no such comment.
func (s *PRs) EditComment(repoName string, id int64, user, body string) shapes.Event {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	for _, c := range r.Comments {
		if c.ID != id {
			continue
		}
		from := c.Body
		c.Edit(user, body, s.Clock())
		is := s.MustIssue(r, c.Issue)
		p := shapes.Obj{"action": "edited", "changes": shapes.Obj{"body": shapes.Obj{"from": from}},
			"issue": s.IssueJSON(r, is), "comment": s.CommentJSON(r, c)}
		return s.EventOf(r, "issue_comment", "edited", user, p)
	}
	panic(fmt.Sprintf("ghfake: %s has no comment %d", repoName, id))
}
