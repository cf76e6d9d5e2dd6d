package core

// CommentByID is the comment of the subject the facts read with id, or nil.
func (e *Eval) CommentByID(id int64) *IssueComment { return e.Facts.PR.Comment(id) }

// Comment is pr's comment with id among those read, or nil.
func (pr *PullRequest) Comment(id int64) *IssueComment {
	for i := range pr.Comments {
		if c := &pr.Comments[i]; id != 0 && c.ID == id {
			return c
		}
	}
	return nil
}
