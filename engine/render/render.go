// Package render fills the templates of a config: strictly for what the action sends, and
// inert for what it posts, so that what an expression gives is shown and never acts.
package render

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// Strict fills t from env; an expression that fails or has no value (null) is an
// error that names it, rather than text with a hole in it.
func Strict(t *lang.Template, env lang.Env) (string, error) { return render(t, env, false, true) }

// Text fills t for text the action posts (a comment, a notification, an issue): as
// Strict, and what the expressions give — often a contributor's words, a title, a
// branch, an agent's outputs — goes through the one renderer of posted text (InertText,
// package markdown): no HTML (so no forged marker of the action's own), no link, image,
// @mention or #reference. The config's own text is kept live.
func Text(t *lang.Template, env lang.Env) (string, error) { return render(t, env, true, true) }

// Message is Text where a value that is null renders as nothing (the messages
// of human stages and dispatch comments, which say what they can rather than fail).
func Message(t *lang.Template, env lang.Env) (string, error) {
	return render(t, env, true, false)
}

func render(t *lang.Template, env lang.Env, inert, strict bool) (string, error) {
	var b strings.Builder
	for _, part := range t.Parts() {
		if part.Expr == nil {
			b.WriteString(part.Text)
			continue
		}
		v, err := part.Expr.Eval(env)
		if err != nil {
			return "", fmt.Errorf("template at %s: %v", t.Pos, err)
		}
		if v == nil && strict {
			return "", fmt.Errorf("template at %s: {{ %s }} has no value", t.Pos, strings.TrimSpace(part.Expr.Src))
		}
		if inert {
			b.WriteString(markdown.InertText(lang.RenderValue(v)))
		} else {
			b.WriteString(lang.RenderValue(v))
		}
	}
	return b.String(), nil
}
