package gates

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

const statusURL = "https://status.example.com/api/health"

func answered(url string, a model.HTTPAnswer) prOpt {
	return func(pr *model.PullRequest) {
		if pr.HTTP == nil {
			pr.HTTP = model.HTTPAnswers{}
		}
		pr.HTTP[url] = a
	}
}

func TestHTTP(t *testing.T) {
	const expect = `outputs.status == 200 && outputs.json.state == "green"`
	tests := []struct {
		name  string
		facts *model.Facts
		want  model.GateResult
	}{
		{
			name:  "the answer holds",
			facts: facts(answered(statusURL, model.HTTPAnswer{Status: 200, JSON: map[string]any{"state": "green"}})),
			want:  model.GateResult{Status: model.GatePass, Message: fmt.Sprintf("GET %s answered 200; %q holds", statusURL, expect)},
		},
		{
			name:  "the answer does not hold yet",
			facts: facts(answered(statusURL, model.HTTPAnswer{Status: 200, JSON: map[string]any{"state": "red"}})),
			want: model.GateResult{Status: model.GatePending, Who: statusURL,
				Message: fmt.Sprintf("GET %s answered 200; %q does not hold yet", statusURL, expect)},
		},
		{
			name:  "a refused call fails closed",
			facts: facts(answered(statusURL, model.HTTPAnswer{Err: "refused: status.example.com is not in settings.webhooks.allow"})),
			want: model.GateResult{Status: model.GateError,
				Message: `GET ` + statusURL + `: refused: status.example.com is not in settings.webhooks.allow`},
		},
		{
			name:  "no answer fetched fails closed",
			facts: facts(),
			want:  model.GateResult{Status: model.GateError, Message: `GET ` + statusURL + ` was not made`},
		},
		{
			name:  "an answer that is not JSON fails closed",
			facts: facts(answered(statusURL, model.HTTPAnswer{Status: 200})),
			want:  model.GateResult{Status: model.GateError},
		},
		{
			name:  "no pull request fails closed",
			facts: nil,
			want:  model.GateResult{Status: model.GateError, Message: `there is no pull request to check; "http" works only on pull requests`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, HTTP{}, "http", `{url: "`+statusURL+`", expect: '`+expect+`'}`)
			tt.want.Check = "http"
			got := c.Evaluate(tt.facts)
			if tt.want.Message == "" {
				assert.Equal(t, tt.want.Status, got.Status, got.Message)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestHTTPParams(t *testing.T) {
	tests := []paramCase{
		{name: "missing", params: "{}", want: "t.yaml:1:1: missing required key \"url\" for check \"http\" [gate]\nt.yaml:1:1: missing required key \"expect\" for check \"http\" [gate]"},
		{name: "not https", params: `{url: "http://status.example.com/", expect: "true"}`, want: `t.yaml:1:7: "url" of check "http" must be an https url, not "http://status.example.com/" [gate]`},
		{name: "credentials", params: `{url: "https://u:p@status.example.com/", expect: "true"}`, want: `t.yaml:1:7: "url" of check "http" must not carry credentials [gate]`},
		// Sent as written, a template would reach the host unrendered; rendered, a branch name
		// would choose the path: refused.
		{name: "template", params: `{url: "https://status.example.com/pr/{{ trigger.pull_request.head.ref }}", expect: "true"}`,
			want: `t.yaml:1:7: "url" of check "http" holds a template; it is sent as written: write the url itself (a custom gate's parameters are filled in at load) [gate]`},
	}
	assertRefuses(t, HTTP{}, "http", true, tests)
}

// The expression reads the answer as `response`; `outputs`, the root a webhook stage keeps
// its answer under, names the same.
func TestHTTPResponseRoot(t *testing.T) {
	f := facts(answered(statusURL, model.HTTPAnswer{Status: 200, JSON: map[string]any{"state": "green"}}))
	for _, expect := range []string{`response.status == 200 && response.json.state == "green"`, `outputs.json.state == response.json.state`} {
		c := mustCompile(t, HTTP{}, "http", `{url: "`+statusURL+`", expect: '`+expect+`'}`)
		got := c.Evaluate(f)
		assert.Equal(t, model.GatePass, got.Status, got.Message)
		assert.Contains(t, got.Message, fmt.Sprintf("%q", expect), "the message quotes the expression as written")
	}
}
