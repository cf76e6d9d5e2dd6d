package run

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
)

// loopbackResolver resolves every name to loopback: no query leaves the machine.
type loopbackResolver struct{}

func (loopbackResolver) LookupIPAddr(context.Context, string) ([]net.IPAddr, error) {
	return []net.IPAddr{{IP: net.IPv4(127, 0, 0, 1)}}, nil
}

// toServer carries every request to srv, a loopback server, whatever host it names.
type toServer struct{ srv *httptest.Server }

func (t toServer) RoundTrip(req *http.Request) (*http.Response, error) {
	u, _ := url.Parse(t.srv.URL)
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host = u.Scheme, u.Host
	return t.srv.Client().Transport.RoundTrip(out)
}

func httpCheckConfig(t *testing.T, settings string) *lang.Config {
	t.Helper()
	src := "version: 1\nsettings: " + settings + `
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: health
        type: gate
        conditions:
          - {check: http, url: "https://status.example.com/health", expect: 'outputs.json.state == "green"'}
          - {check: http, url: "https://status.example.com/health", expect: "outputs.status == 200"}
          - {check: http, url: "https://other.example.com/x", expect: "true"}
`
	cfg, err := LoadConfig(&ghapi.Config{ID: "c", Files: []ghapi.ConfigFile{{Path: ".github/pipelines.yaml", Blob: ghapi.Blob{Text: src}}}})
	require.NoError(t, err)
	return cfg
}

func TestHTTPFactsGetsEachURLOnceThroughTheGuard(t *testing.T) {
	gets := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets[r.Method+" "+r.Host+r.URL.Path]++
		_, _ = w.Write([]byte(`{"state": "green"}`))
	}))
	defer srv.Close()
	env := WebhookEnv{Transport: toServer{srv}, Resolver: loopbackResolver{}}
	open := func() *model.Facts {
		return &model.Facts{PR: &model.PullRequest{Number: 7, State: model.PROpen}}
	}

	f := open()
	httpFacts(t.Context(), env, "test", httpCheckConfig(t, "{webhooks: {allow: [status.example.com], allow_private: true}}"), f)
	assert.Equal(t, model.HTTPAnswer{Status: 200, JSON: map[string]any{"state": "green"}}, f.PR.HTTP["https://status.example.com/health"])
	assert.Contains(t, f.PR.HTTP["https://other.example.com/x"].Err, "other.example.com is not in settings.webhooks.allow")
	assert.Equal(t, map[string]int{"GET status.example.com/health": 1}, gets, "one GET per url, none to a host not allowed")

	f = open()
	httpFacts(t.Context(), env, "test", httpCheckConfig(t, "{webhooks: {allow: [status.example.com]}}"), f)
	assert.Contains(t, f.PR.HTTP["https://status.example.com/health"].Err, "loopback", "the guard refuses a private address")

	f = open()
	httpFacts(t.Context(), env, "test", httpCheckConfig(t, "{webhooks: {allow_private: true}}"), f)
	assert.Contains(t, f.PR.HTTP["https://status.example.com/health"].Err, "lists no host")
	assert.Equal(t, 1, gets["GET status.example.com/health"], "no host listed, no GET")
}
