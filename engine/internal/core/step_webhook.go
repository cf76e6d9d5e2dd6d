package core

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// EffectWebhook calls an HTTP endpoint for a webhook stage.
const EffectWebhook EffectKind = "webhook"

// WebhookCall is what a webhook effect asks the shell to send.
type WebhookCall struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Host is the host (and port) the config writes in the url; URL names it too.
	Host    string          `json:"host"`
	Headers []WebhookHeader `json:"headers,omitempty"`
	Body    string          `json:"body,omitempty"` // JSON; empty for none
	Expect  int             `json:"expect"`         // the status that counts as success
	Timeout time.Duration   `json:"timeout"`
	// Allow is settings.webhooks.allow (empty: any host); AllowPrivate its allow_private.
	Allow        []string `json:"allow,omitempty"`
	AllowPrivate bool     `json:"allow_private,omitempty"`
}

// WebhookHeader is a header of a call: text, and secrets only the shell fills in (it masks
// them in the job log; they are never in the state).
type WebhookHeader struct {
	Name  string              `json:"name"`
	Parts []WebhookHeaderPart `json:"parts"`
}

// WebhookHeaderPart is rendered text, or the name of a secret.
type WebhookHeaderPart struct {
	Text   string `json:"text,omitempty"`
	Secret string `json:"secret,omitempty"`
}

// WebhookResponse is what a call got back: its status, and its body when it is JSON of
// at most MaxWebhookOutput bytes (else nil). They become the stage's outputs
// (`stages.<id>.outputs.status`, `.body`).
type WebhookResponse struct {
	Status int `json:"status"`
	Body   any `json:"body,omitempty"`
}

// WebhookKey is the key of call number sr.Tries+1 of run's current attempt of stage.
func WebhookKey(run *Run, stage *lang.Stage) string {
	sr := run.Stages[stage.ID]
	return fmt.Sprintf("%s/%s/%d/%s/%d", run.ID, stage.ID, sr.Attempt, EffectWebhook, sr.Tries+1)
}

// RenderWebhookURL fills the templates of url t from env: a value in the path is escaped
// as one path segment (a "/" in it is %2F; "." and ".." are escaped too), a value after
// "?" as a query value. The result must be an https url naming host.
func RenderWebhookURL(t *lang.Template, env lang.Env, host string) (string, error) {
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
