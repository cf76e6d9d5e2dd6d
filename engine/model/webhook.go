package model

import "time"

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
// at most webhook.MaxOutput bytes (else nil). They become the stage's outputs
// (`stages.<id>.outputs.status`, `.body`).
type WebhookResponse struct {
	Status int `json:"status"`
	Body   any `json:"body,omitempty"`
}
