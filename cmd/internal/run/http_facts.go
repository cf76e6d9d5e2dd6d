package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/webhook"
	"github.com/org/pipeline-action/engine/lang"
)

// HTTPCheckTimeout bounds each GET of an `http` check: the invocation waits for it.
const HTTPCheckTimeout = 10 * time.Second

// urlCheck is a check that judges the answer of a GET to a url (http).
type urlCheck interface{ URL() string }

// checkURLs lists, once each, the urls the http checks of the configs in use name.
func checkURLs(cfg *lang.Config) []string {
	var out []string
	seen := map[string]bool{}
	eachCondition(cfg, func(c lang.Condition) {
		uc, ok := c.Eval.(urlCheck)
		if c.BuiltinCheck() != "http" || !ok || seen[uc.URL()] {
			return
		}
		seen[uc.URL()] = true
		out = append(out, uc.URL())
	})
	return out
}

// httpFacts makes the GETs of the http checks of cfg for an open pull request, once per
// url, and puts their answers in f. A GET goes through the webhook client: https only, to
// a host settings.webhooks.allow lists (an empty list allows none here), its addresses
// checked by the guard. A GET that gets no answer leaves its error in the facts, where its
// checks fail closed; it never fails the invocation.
func httpFacts(ctx context.Context, env WebhookEnv, userAgent string, cfg *lang.Config, f *model.Facts) {
	if f == nil || f.PR == nil || f.PR.State != model.PROpen {
		return
	}
	urls := checkURLs(cfg)
	if len(urls) == 0 {
		return
	}
	allow := cfg.Settings.WebhookHosts
	client := webhook.New(webhook.Options{Guard: webhook.Guard{AllowPrivate: cfg.Settings.WebhookAllowPrivate, Resolver: env.Resolver},
		Allow: allow, Transport: env.Transport, UserAgent: userAgent})
	f.PR.HTTP = model.HTTPAnswers{}
	for _, u := range urls {
		f.PR.HTTP[u] = getAnswer(ctx, client, u, allow)
	}
}

// getAnswer makes one GET and decodes its body as JSON (nil when it is empty or not JSON).
func getAnswer(ctx context.Context, client *webhook.Client, raw string, allow []string) model.HTTPAnswer {
	if len(allow) == 0 {
		return model.HTTPAnswer{Err: "refused: settings.webhooks.allow lists no host; an http check calls only the hosts it lists"}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return model.HTTPAnswer{Err: err.Error()}
	}
	resp, err := client.Do(ctx, webhook.Request{Method: http.MethodGet, URL: raw, Host: u.Host,
		Header: http.Header{"Accept": {"application/json"}}, Timeout: HTTPCheckTimeout})
	if err != nil {
		return model.HTTPAnswer{Err: err.Error()}
	}
	if resp.Truncated {
		return model.HTTPAnswer{Status: resp.Status, Err: "the answer is longer than 64 KiB"}
	}
	a := model.HTTPAnswer{Status: resp.Status}
	var v any
	if len(resp.Body) > 0 && json.Unmarshal(resp.Body, &v) == nil {
		a.JSON = v
	}
	return a
}

// httpFacts makes the GETs of cfg's http checks with the runner's webhook transport.
func (r *Runner) httpFacts(ctx context.Context, cfg *lang.Config, f *model.Facts) {
	var env WebhookEnv
	if r.Webhooks != nil {
		env = *r.Webhooks
	}
	httpFacts(ctx, env, "pipeline-action/"+r.versionOrDev(), cfg, f)
}
