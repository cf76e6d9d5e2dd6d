package action

import (
	"strings"
	"unicode/utf8"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"
	"github.com/org/pipeline-action/engine/stage"
)

// The bounds of a merge's commit text. A title is one line; both are kept short enough to
// sit in the state's write-ahead intent of the merge, which holds them until GitHub answers.
const (
	maxCommitTitle   = 256
	maxCommitMessage = 10_000
)

// commitText fills eff's commit title and message from merge_pr's `commit_title` and
// `commit_message`, as plain text (a commit message is not posted Markdown). An expression
// that fails or has no value fails the stage, naming it: a merge with a message full of holes
// is worse than none.
func commitText(c stage.Context, s *lang.Stage, eff *model.Effect) (why string) {
	env := c.TemplateEnv()
	if t := s.Config.CommitTitle; t != nil {
		title, err := render.Strict(t, env)
		if err != nil {
			return err.Error()
		}
		title, _, _ = strings.Cut(strings.TrimSpace(title), "\n")
		eff.Title = cut(strings.TrimSpace(title), maxCommitTitle)
	}
	if t := s.Config.CommitMessage; t != nil {
		msg, err := render.Strict(t, env)
		if err != nil {
			return err.Error()
		}
		eff.Body = cut(strings.TrimSpace(msg), maxCommitMessage)
	}
	return ""
}

// cut shortens s to at most n bytes, on a character boundary, marking the cut with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n - len("…")
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}
