package webhook

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Key is the key of call number sr.Tries+1 of run's current attempt of stage.
func Key(run *model.Run, stage *lang.Stage) string {
	sr := run.Stages[stage.ID]
	return fmt.Sprintf("%s/%s/%d/%s/%d", run.ID, stage.ID, sr.Attempt, model.EffectWebhook, sr.Tries+1)
}

// RenderURL fills the templates of url t from env: a value in the path is escaped
// as one path segment (a "/" in it is %2F; "." and ".." are escaped too), a value after
// "?" as a query value. The result must be an https url naming host.
func RenderURL(t *lang.Template, env lang.Env, host string) (string, error) {
	var b strings.Builder
	query := false
	for _, part := range t.Parts() {
		if part.Expr == nil {
			b.WriteString(part.Text)
			if strings.ContainsAny(part.Text, "?#") {
				query = true
			}
			continue
		}
		v, err := part.Expr.Eval(env)
		if err != nil {
			return "", fmt.Errorf("url template at %s: %v", t.Pos, err)
		}
		if v == nil {
			return "", fmt.Errorf("url template at %s: {{ %s }} has no value", t.Pos, strings.TrimSpace(part.Expr.Src))
		}
		s := lang.RenderValue(v)
		switch {
		case query:
			s = url.QueryEscape(s)
		case s == ".":
			s = "%2E"
		case s == "..":
			s = "%2E%2E"
		default:
			s = url.PathEscape(s)
		}
		b.WriteString(s)
	}
	out := b.String()
	u, err := url.Parse(out)
	switch {
	case err != nil:
		return "", fmt.Errorf("the url %q does not parse: %v", out, err)
	case u.Scheme != "https":
		return "", fmt.Errorf("the url %q is not https", out)
	case u.User != nil:
		return "", fmt.Errorf("the url %q carries credentials", out)
	case !strings.EqualFold(u.Host, host):
		return "", fmt.Errorf("the url %q does not call %s, the host the config writes", out, host)
	}
	return out, nil
}
