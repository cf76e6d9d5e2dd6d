package engine

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Webhook stages. Entering one asks the shell for one HTTP call (EffectWebhook), written
// ahead like a merge: the state holding its intent is saved before the call is made, so
// that of two invocations only the one whose save won calls, and a redelivered event
// finds the call recorded and does not call again. The answer comes back as the effect's
// outcome: the expected status → on_success; another status, or no answer → a new call
// while on_error's retries remain, then on_failure (or on_error's then; fail by default).
// A call the shell refused to make (its address guard, a missing secret) is not retried.
// A call whose outcome stayed unknown (the invocation that made it ended without
// recording it) is not made again either: it fails the stage.
//
// What PR data may change in a request is limited: the scheme and host of the url are
// written literally (validation), and a template's value in the path or query is
// escaped, so it stays within its path segment or query value.

// EffectWebhook calls an HTTP endpoint for a webhook stage.
const EffectWebhook EffectKind = "webhook"

// Bounds of a webhook call.
const (
	DefaultWebhookTimeout = 30 * time.Second
	MaxWebhookBody        = 64 << 10 // the JSON body sent
	MaxWebhookOutput      = 4 << 10  // the JSON of a response body kept as the stage's outputs
)

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

// webhookKey is the key of call number sr.Tries+1 of run's current attempt of stage.
func webhookKey(run *Run, stage *lang.Stage) string {
	sr := run.Stages[stage.ID]
	return fmt.Sprintf("%s/%s/%d/%s/%d", run.ID, stage.ID, sr.Attempt, EffectWebhook, sr.Tries+1)
}

// webhook evaluates webhook stage of run: asks for its next call.
func (e *eval) webhook(p *lang.Pipeline, run *Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	key := webhookKey(run, stage)
	if contains(run.Applied, key) {
		return e.webhookFailed(run, stage, fmt.Sprintf("call %s was already made; it is not made twice", key), true)
	}
	call, err := e.webhookCall(p, run, stage)
	if err != nil {
		return e.webhookFailed(run, stage, err.Error(), true)
	}
	if sr.Status != StageRetrying {
		sr.Status = StageActing
	}
	run.Status = RunRunning
	eff := Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: EffectWebhook, Number: e.facts.PR.Number, Webhook: call}
	e.intend(run, sr, &eff)
	e.effects = append(e.effects, eff)
	return false
}

// webhookCall renders the request of stage for run.
func (e *eval) webhookCall(p *lang.Pipeline, run *Run, stage *lang.Stage) (*WebhookCall, error) {
	r := stage.Request
	if r == nil || r.URL == nil {
		return nil, fmt.Errorf("webhook stage %q has no url", stage.ID)
	}
	host, ok := lang.ParseWebhookHost(r.URL.Src)
	if !ok || host == "" {
		return nil, fmt.Errorf("the url of webhook stage %q must name its host literally", stage.ID)
	}
	if !lang.WebhookHostAllowed(host, e.cfg.Settings.WebhookHosts) {
		return nil, fmt.Errorf("webhook host %q is not in settings.webhooks.allow", host)
	}
	env := e.templateEnv(p, run)
	u, err := renderWebhookURL(r.URL, env, host)
	if err != nil {
		return nil, err
	}
	call := &WebhookCall{Method: r.Method, URL: u, Host: host, Expect: stage.ExpectStatus, Timeout: stage.Timeout,
		Allow: e.cfg.Settings.WebhookHosts, AllowPrivate: e.cfg.Settings.WebhookAllowPrivate}
	if call.Method == "" {
		call.Method = "POST"
	}
	if call.Expect == 0 {
		call.Expect = 200
	}
	if call.Timeout <= 0 {
		call.Timeout = DefaultWebhookTimeout
	}
	for _, h := range r.Headers {
		wh := WebhookHeader{Name: h.Key}
		for _, part := range h.Parts {
			if part.Secret != "" {
				wh.Parts = append(wh.Parts, WebhookHeaderPart{Secret: part.Secret})
				continue
			}
			text, err := renderStrict(part.Text, env)
			if err != nil {
				return nil, fmt.Errorf("header %q: %v", h.Key, err)
			}
			if i := strings.IndexFunc(text, func(c rune) bool { return c < ' ' && c != '\t' || c == 0x7f }); i >= 0 {
				return nil, fmt.Errorf("header %q: its value holds a control character (%q); refused", h.Key, text[i])
			}
			wh.Parts = append(wh.Parts, WebhookHeaderPart{Text: text})
		}
		call.Headers = append(call.Headers, wh)
	}
	if r.Body.Kind != lang.KindNull {
		v, err := lang.ValueOf(r.Body, env)
		if err != nil {
			return nil, fmt.Errorf("body: %v", err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("body: does not encode as JSON: %v", err)
		}
		if len(b) > MaxWebhookBody {
			return nil, fmt.Errorf("body: %d bytes of JSON, more than %d", len(b), MaxWebhookBody)
		}
		call.Body = string(b)
	}
	return call, nil
}

// renderWebhookURL fills the templates of url t from env: a value in the path is escaped
// as one path segment (a "/" in it is %2F; "." and ".." are escaped too), a value after
// "?" as a query value. The result must be an https url naming host.
func renderWebhookURL(t *lang.Template, env lang.Env, host string) (string, error) {
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

// settleWebhook records outcome o if it is the outcome of a webhook call, and reports
// whether it was one.
func (e *eval) settleWebhook(o Outcome) bool {
	for _, run := range e.st.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		if stage == nil || stage.Type != lang.StageWebhook || run.Stages[stage.ID] == nil || webhookKey(run, stage) != o.Key {
			continue
		}
		e.webhookOutcome(run, stage, o)
		return true
	}
	return false
}

// webhookOutcome records what call o.Key got: the call was made, whatever came back, and
// is never made again.
func (e *eval) webhookOutcome(run *Run, stage *lang.Stage, o Outcome) {
	sr := run.Stages[stage.ID]
	run.Intents = dropIntent(run.Intents, o.Key)
	run.Applied = appendOnce(run.Applied, o.Key)
	sr.Outputs = nil // the outputs are those of the last call: none when it got no answer
	if o.Response != nil {
		out := map[string]any{"status": o.Response.Status}
		if o.Response.Body != nil {
			if b, err := json.Marshal(o.Response.Body); err == nil && len(b) <= MaxWebhookOutput {
				out["body"] = o.Response.Body
			}
		}
		sr.Outputs = lang.JSONSafe(out)
	}
	if o.Err == "" {
		sr.Message = ""
		why := fmt.Sprintf("webhook %s %s answered", stage.Request.Method, lang.WebhookHost(stage.Request.URL.Src))
		if o.Response != nil {
			why = fmt.Sprintf("%s %d", why, o.Response.Status)
		}
		e.logf("run %s: %s: %s", run.ID, stage.ID, why)
		e.leave(run, stage, StageSucceeded, stage.OnSuccess, why)
		return
	}
	e.webhookFailed(run, stage, o.Err, o.Permanent)
}

// webhookFailed handles a failed call: another call while on_error's retries remain
// (unless final: calling again cannot help, or could call twice), then on_failure, or
// on_error's then, or fail. It reports whether the run moved.
func (e *eval) webhookFailed(run *Run, stage *lang.Stage, why string, final bool) bool {
	sr := run.Stages[stage.ID]
	sr.Tries++
	retries := 0
	if stage.OnError != nil {
		retries = stage.OnError.Retry
	}
	if !final && sr.Tries <= retries {
		sr.Status = StageRetrying
		sr.Message = fmt.Sprintf("%s; calling again (retry %d of %d)", why, sr.Tries, retries)
		run.Status = RunRunning
		e.logf("run %s: %s: %s", run.ID, stage.ID, sr.Message)
		return false
	}
	target := stage.OnFailure
	if target == "" && stage.OnError != nil {
		target = stage.OnError.Then
	}
	if target == "" {
		target = lang.TargetFail
	}
	if retries > 0 && !final {
		why = fmt.Sprintf("%s; %d %s spent", why, retries, plural(retries, "retry", "retries"))
	}
	why = fmt.Sprintf("webhook stage %q failed: %s", stage.ID, why)
	sr.Message = why
	e.logf("run %s: %s", run.ID, why)
	e.leave(run, stage, StageFailed, target, why)
	return !run.Status.Final()
}

// reconcileWebhook settles a webhook intent found in the state. Nothing on GitHub tells
// whether the call was made: once the invocation that asked for it has surely ended, its
// outcome is unknown, and the call is not made again (it could be made twice): the stage
// fails.
func (e *eval) reconcileWebhook(run *Run, stage *lang.Stage, it Intent) {
	sr := run.Stages[it.Stage]
	if run.Stage != it.Stage || sr == nil || sr.Attempt != it.Attempt || webhookKey(run, stage) != it.Key {
		run.Intents = dropIntent(run.Intents, it.Key)
		e.logf("run %s: intent %s: the run has moved on from it; dropped", run.ID, it.Key)
		return
	}
	if o, ok := e.outcome(it.Key); ok {
		e.webhookOutcome(run, stage, o)
		return
	}
	if e.now.Before(it.inFlightUntil()) {
		e.inFlight(run, it)
		return
	}
	run.Intents = dropIntent(run.Intents, it.Key)
	run.Applied = appendOnce(run.Applied, it.Key)
	host := ""
	if stage.Request != nil && stage.Request.URL != nil {
		host = lang.WebhookHost(stage.Request.URL.Src)
	}
	e.webhookFailed(run, stage, fmt.Sprintf("whether the call to %s asked for at %s was made is not known (the invocation that made it ended without recording its answer); it is not made again, so that it is not made twice",
		host, it.At.UTC().Format("2006-01-02 15:04 UTC")), true)
}
