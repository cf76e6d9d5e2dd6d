package core

import (
	"github.com/org/pipeline-action/engine/model"
)

// CommentByID is the comment of the subject the facts read with id, or nil.
func (e *Eval) CommentByID(id int64) *model.IssueComment { return e.Facts.PR.Comment(id) }
