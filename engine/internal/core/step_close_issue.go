package core

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// LinkedFromBody says, when issue n is one the pull request links only through the closing
// keywords of its body (GitHub linked none), so; "" otherwise.
func (e *Eval) LinkedFromBody(n int) string {
	pr := e.Facts.PR
	if pr == nil || pr.LinkedFrom != model.LinkedFromBody || !slices.Contains(pr.LinkedIssues, n) {
		return ""
	}
	return "linked by a closing keyword in the body of " + e.linkNote(pr)
}

// linkNote says why a pull request's links were read from its body.
func (e *Eval) linkNote(pr *model.PullRequest) string {
	def := e.Facts.DefaultBranch
	if def == "" {
		def = "the default branch"
	}
	return fmt.Sprintf("#%d (GitHub links issues only to pull requests into %s, not into %s)", pr.Number, def, pr.BaseRef)
}

// ActionDoneWhy is the history's reason for an action stage done: actionDone, and for a
// close_issue while the pull request's links come from its body, that they do.
func (e *Eval) ActionDoneWhy(stage *lang.Stage) string {
	why := actionDone(stage)
	if stage.Action != lang.ActionCloseIssue || e.Facts.PR == nil || e.Facts.PR.LinkedFrom != model.LinkedFromBody {
		return why
	}
	return why + "; the linked issues come from closing keywords in the body of " + e.linkNote(e.Facts.PR)
}
