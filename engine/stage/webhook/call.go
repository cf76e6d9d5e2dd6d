// Package webhook is the webhook stage: it asks the shell for one HTTP call, written
// ahead like a merge, and moves on what came back.
//
// What PR data may change in a request is limited: the scheme and host of the url are
// written literally (validation) and must be allowed by settings.webhooks.allow, a
// template's value in the path or query is escaped so it stays within its path segment or
// query value, a header value holds no control character, and the body is bounded JSON.
package webhook

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/lang"
)

// Bounds of a webhook call.
const (
	DefaultTimeout = 30 * time.Second
	MaxBody        = 64 << 10 // the JSON body sent
	MaxOutput      = 4 << 10  // the JSON of a response body kept as the stage's outputs
)

// Render renders the request of webhook stage, its templates over the env that env gives,
// within what settings allow. env is called only once the host is allowed: building it
// reads the run's variables, whose evaluation may log.
func Render(stage *lang.Stage, settings *lang.Settings, env func() lang.Env) (*model.WebhookCall, error) {
	r := stage.Request
	if r == nil || r.URL == nil {
		return nil, fmt.Errorf("webhook stage %q has no url", stage.ID)
	}
	host, ok := lang.ParseWebhookHost(r.URL.Src)
	if !ok || host == "" {
		return nil, fmt.Errorf("the url of webhook stage %q must name its host literally", stage.ID)
	}
	if !lang.WebhookHostAllowed(host, settings.WebhookHosts) {
		return nil, fmt.Errorf("webhook host %q is not in settings.webhooks.allow", host)
	}
	vars := env()
	u, err := RenderURL(r.URL, vars, host)
	if err != nil {
		return nil, err
	}
	call := &model.WebhookCall{Method: r.Method, URL: u, Host: host, Expect: stage.ExpectStatus, Timeout: stage.Timeout,
		Allow: settings.WebhookHosts, AllowPrivate: settings.WebhookAllowPrivate}
	if call.Method == "" {
		call.Method = "POST"
	}
	if call.Expect == 0 {
		call.Expect = 200
	}
	if call.Timeout <= 0 {
		call.Timeout = DefaultTimeout
	}
	for _, h := range r.Headers {
		wh := model.WebhookHeader{Name: h.Key}
		for _, part := range h.Parts {
			if part.Secret != "" {
				wh.Parts = append(wh.Parts, model.WebhookHeaderPart{Secret: part.Secret})
				continue
			}
			text, err := render.Strict(part.Text, vars)
			if err != nil {
				return nil, fmt.Errorf("header %q: %v", h.Key, err)
			}
			if i := strings.IndexFunc(text, func(c rune) bool { return c < ' ' && c != '\t' || c == 0x7f }); i >= 0 {
				return nil, fmt.Errorf("header %q: its value holds a control character (%q); refused", h.Key, text[i])
			}
			wh.Parts = append(wh.Parts, model.WebhookHeaderPart{Text: text})
		}
		call.Headers = append(call.Headers, wh)
	}
	if r.Body.Kind != lang.KindNull {
		v, err := lang.ValueOf(r.Body, vars)
		if err != nil {
			return nil, fmt.Errorf("body: %v", err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("body: does not encode as JSON: %v", err)
		}
		if len(b) > MaxBody {
			return nil, fmt.Errorf("body: %d bytes of JSON, more than %d", len(b), MaxBody)
		}
		call.Body = string(b)
	}
	return call, nil
}
