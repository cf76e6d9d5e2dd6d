package sim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const notifyExample = "../../../examples/webhook-notify"

// playExample plays the scenario of dir, changed by edit, and returns the simulation and its
// printed output (job logs included).
func playExample(t *testing.T, dir string, edit func(*scenario)) (*simulation, string, int) {
	t.Helper()
	sc, err := loadScenario(filepath.Join(dir, "scenario.yaml"))
	require.NoError(t, err)
	if edit != nil {
		edit(sc)
	}
	files, err := scenarioConfig(sc.Rel(sc.Config))
	require.NoError(t, err)
	var out bytes.Buffer
	sim := startSim(t, sc, files, &out)
	sim.verbose = true
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	return sim, out.String(), failed
}

// A secret read by a header reaches the service, is masked in the job log before anything
// is logged, and is written nowhere: not in the log, the comments or the state.
func TestWebhookSecretIsSentMaskedAndKeptNowhere(t *testing.T) {
	const secret = "s3cret-builds-token"
	sim, out, failed := playExample(t, notifyExample, nil)
	require.Zero(t, failed, out)

	require.Len(t, sim.http.calls, 1)
	call := sim.http.calls[0]
	assert.Equal(t, "Bearer "+secret, call.header.Get("Authorization"))
	assert.Equal(t, "application/json", call.header.Get("Content-Type"))
	assert.JSONEq(t, `{"pr": 7, "title": "Add a preview"}`, call.body)

	assert.Contains(t, out, "::add-mask::"+secret)
	assert.Equal(t, 1, strings.Count(out, secret), "the secret is in the job log only in its mask command")
	var quoted bool
	for _, c := range sim.fake.Comments(sim.sc.Repo, 7) {
		assert.NotContains(t, c.Body, secret)
		quoted = quoted || strings.Contains(c.Body, "Preview build b-42 queued (201).")
	}
	assert.True(t, quoted, "the next stage quotes the answer (stages.announce.outputs)")
	files := sim.fake.BranchFiles(sim.sc.Repo, "pipeline-action/state")
	require.NotEmpty(t, files)
	states := 0
	for name, content := range files {
		assert.NotContains(t, content, secret, name)
		if strings.HasSuffix(name, ".json") { // the branch starts from the default branch's tree, the config included
			states++
			assert.NotContains(t, content, "Bearer", name)
		}
	}
	assert.NotZero(t, states, "the state files were read")
}

func TestWebhookMissingSecretIsNotCalled(t *testing.T) {
	sim, out, failed := playExample(t, notifyExample, func(sc *scenario) { sc.Secrets = nil })
	assert.NotZero(t, failed)
	assert.Empty(t, sim.http.calls)
	c := sim.stateComment(7)
	require.NotNil(t, c)
	assert.Contains(t, c.Body, "secret BUILDS_TOKEN is not set; give the action's step the environment variable PIPELINE_SECRET_BUILDS_TOKEN", out)
	assert.Contains(t, c.Body, "escalated")
}

// A call that no stub answers stops the scenario loudly.
func TestWebhookWithoutStubFailsTheStep(t *testing.T) {
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(notifyExample, "pipelines.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), cfg, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(`repo: acme/widgets
users: {dev: write}
secrets: {BUILDS_TOKEN: x}
http:
  "POST https://builds.example.com/elsewhere": {status: 201}
steps:
  - open_pr: {number: 7, author: dev, base: main, head: feat/preview}
  - label: {pr: 7, add: [ship]}
expect:
  prs: {7: {merged: false}}
`), 0o600))
	code, out, errOut := simulate(t, dir)
	assert.Equal(t, 2, code, out)
	assert.Contains(t, errOut, "step 2: a webhook call that no stub answers:\n  POST https://builds.example.com/previews/feat%2Fpreview?pr=7 has no stub under http: (stubs: POST https://builds.example.com/elsewhere)")
}

const echoScenario = "testdata/scenarios/webhook-echo-secret"

// `nowhere` looks in every place the action keeps or shows text: what the echoed answer
// left in the comments, the marker's state and the state files, and the job summary.
func TestNowhereFindsWhatTheActionKept(t *testing.T) {
	_, out, failed := playExample(t, echoScenario, func(sc *scenario) {
		sc.Expect = &expectation{Nowhere: []string{"BEARER ***", "## #7"}}
	})
	assert.Equal(t, 2, failed, out)
	assert.Contains(t, out, `✗ "BEARER ***" appears nowhere the action kept or showed`)
	assert.Contains(t, out, "the state in the marker of comment")
	assert.Contains(t, out, "pr-7.json at commit")
	assert.Regexp(t, `✗ "## #7" appears nowhere .*found in summary-\d+`, out)
}

// The secrets reach the endpoint as configured; only the answer is masked.
func TestWebhookEchoSendsSecretsAndMasksTheAnswer(t *testing.T) {
	sim, out, failed := playExample(t, echoScenario, nil)
	require.Zero(t, failed, out)
	require.Len(t, sim.http.calls, 1)
	assert.Equal(t, "Bearer s3cretBuildsToken", sim.http.calls[0].header.Get("Authorization"))
	assert.Equal(t, "key=k3yForTheApi; team=t34mId0042", sim.http.calls[0].header.Get("X-Api-Key"))
}

// A stub that both echoes and gives a body is a mistake in the scenario: the step fails
// loudly rather than answering with one of them.
func TestWebhookEchoWithBodyIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(echoScenario, "pipelines.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), cfg, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(`repo: acme/widgets
users: {dev: write}
secrets: {BUILDS_TOKEN: a, API_KEY: b, TEAM_ID: c}
http:
  "POST https://builds.example.com/previews?pr=7": {status: 201, echo: true, body: {id: 1}}
steps:
  - open_pr: {number: 7, author: dev, base: main, head: feat/a}
expect:
  prs: {7: {merged: false}}
`), 0o600))
	code, out, errOut := simulate(t, dir)
	assert.Equal(t, 2, code, out)
	assert.Contains(t, errOut, "the stub POST https://builds.example.com/previews?pr=7 has both echo and body; an echoing stub answers with the request")
}
