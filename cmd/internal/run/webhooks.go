package run

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	webhookstage "github.com/org/pipeline-action/engine/stage/webhook"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/webhook"
)

// SecretEnvPrefix starts the environment variable a webhook header's `{{ secrets.NAME }}`
// is read from: PIPELINE_SECRET_NAME, set on the action's step from `${{ secrets.NAME }}`.
const SecretEnvPrefix = "PIPELINE_SECRET_"

// WebhookEnv is what webhook calls go through: in simulate, a transport of stubs and a
// resolver of the scenario's names, so that no call leaves the machine; nil for the network.
type WebhookEnv struct {
	Transport http.RoundTripper
	Resolver  webhook.Resolver
}

// perform carries out one effect: a webhook call here, anything else on GitHub.
func (r *Runner) perform(ctx context.Context, client *ghapi.Client, e model.Effect) model.Outcome {
	if e.Kind == model.EffectWebhook {
		return r.callWebhook(ctx, e)
	}
	return client.Perform(ctx, e)
}

// callWebhook makes the call of a webhook effect. Its secrets are read from the
// environment and masked in the job log before anything else; neither they nor the
// headers are logged, and the outcome names only the method, the url and the status.
func (r *Runner) callWebhook(ctx context.Context, e model.Effect) model.Outcome {
	c := e.Webhook
	if c == nil {
		return model.Outcome{Key: e.Key, Err: "a webhook effect without a request", Permanent: true}
	}
	where := c.Method + " " + c.URL // no secret: a url cannot read one
	header := http.Header{}
	var sent []string // the secret values sent, masked in the answer
	for _, h := range c.Headers {
		var b strings.Builder
		for _, p := range h.Parts {
			if p.Secret == "" {
				b.WriteString(p.Text)
				continue
			}
			v := r.Getenv(SecretEnvPrefix + p.Secret)
			if v == "" {
				return model.Outcome{Key: e.Key, Permanent: true, Err: fmt.Sprintf(
					"%s: secret %s is not set; give the action's step the environment variable %s%s (from ${{ secrets.%s }})",
					where, p.Secret, SecretEnvPrefix, p.Secret, p.Secret)}
			}
			r.act.AddMask(v)
			sent = append(sent, v)
			b.WriteString(v)
		}
		header.Add(h.Name, b.String())
	}
	var env WebhookEnv
	if r.Webhooks != nil {
		env = *r.Webhooks
	}
	client := webhook.New(webhook.Options{Guard: webhook.Guard{AllowPrivate: c.AllowPrivate, Resolver: env.Resolver},
		Allow: c.Allow, Transport: env.Transport, UserAgent: "pipeline-action/" + r.versionOrDev()})
	var body []byte
	if c.Body != "" {
		body = []byte(c.Body)
	}
	resp, err := client.Do(ctx, webhook.Request{Method: c.Method, URL: c.URL, Host: c.Host, Header: header, Body: body, Timeout: c.Timeout})
	if err != nil {
		var refused *webhook.RefusedError
		if errors.As(err, &refused) {
			return model.Outcome{Key: e.Key, Err: fmt.Sprintf("%s: %s", where, refused.Error()), Permanent: true}
		}
		return model.Outcome{Key: e.Key, Err: fmt.Sprintf("%s: %v", where, err)}
	}
	// The answer is masked here, as it comes back, before anything keeps or shows it:
	// the engine stores it in the run's outputs, which the state and comments carry.
	out := &model.WebhookResponse{Status: resp.Status}
	if !resp.Truncated && len(resp.Body) > 0 && len(resp.Body) <= webhookstage.MaxOutput {
		if v, ok := webhook.NewMasker(sent).JSON(resp.Body); ok {
			out.Body = v
		}
	}
	if resp.Status != c.Expect {
		return model.Outcome{Key: e.Key, Err: fmt.Sprintf("%s answered %d, not %d", where, resp.Status, c.Expect), Response: out}
	}
	return model.Outcome{Key: e.Key, Response: out}
}

// versionOrDev is the version the runner reports in the User-Agent of webhook calls.
func (r *Runner) versionOrDev() string {
	if r.Version == "" {
		return "dev"
	}
	return r.Version
}
