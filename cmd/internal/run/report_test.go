package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"
	"github.com/org/pipeline-action/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func reportOut(t *testing.T, env map[string]string, stdin string, args ...string) (int, string) {
	t.Helper()
	return reportOutAt(t, nil, env, stdin, args...)
}

// reportOutAt is reportOut with the runner's clock now (nil: the machine's).
func reportOutAt(t *testing.T, now func() time.Time, env map[string]string, stdin string, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := testMainAt(now, append([]string{"report"}, args...), strings.NewReader(stdin), &out, &out, func(k string) string { return env[k] })
	return code, out.String()
}

func TestReportUsageMistakes(t *testing.T) {
	env := map[string]string{"GITHUB_REPOSITORY": "acme/widgets"}
	big := filepath.Join(t.TempDir(), "big.json")
	require.NoError(t, os.WriteFile(big, []byte(`{"x":"`+strings.Repeat("a", agent.MaxOutputs)+`"}`), 0o600))
	cases := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1"}, "", "--verdict are required"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--verdict", "complete"}, "", "--nonce is required: pass the dispatch's nonce input"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--verdict", "complete", "--nonce", "1-abc"}, "", `--nonce "1-abc" is not a dispatch's nonce`},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--verdict", "complete", "--nonce", "1-00ff00ff00ff00ff.xyz"}, "", "is not a dispatch's nonce"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "lgtm"}, "", `unknown verdict "lgtm"`},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "0", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete"}, "", `--attempt "0" is not a positive number`},
		{[]string{"--run", "loop/7/1\n::error::x", "--stage", "s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete"}, "", "is not a run id"},
		{[]string{"--run", "loop/7/1", "--stage", "S s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete"}, "", "is not a stage id"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete", "--pr", "8", "--outputs", "-"}, `{"pr": 9}`, "--pr 8 and outputs.pr 9 name different pull requests"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete", "--outputs", "-"}, `["a"]`, "must be a JSON object"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete", "--outputs", "-"}, `{"a":1} {"b":2}`, "one JSON object"},
		{[]string{"--run", "loop/7/1", "--stage", "s", "--attempt", "1", "--nonce", "1-00ff00ff00ff00ff", "--verdict", "complete", "--outputs", big}, "", "larger than 16384 bytes"},
		{[]string{"extra"}, "", "takes no arguments"},
	}
	for _, tc := range cases {
		code, out := reportOut(t, env, tc.stdin, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, out)
		assert.Contains(t, out, tc.want, "%v", tc.args)
		assert.Contains(t, out, "usage: pipeline-action report", "%v", tc.args)
	}
}

// An agent's workflow reports with command: report; outside Actions, the command reads
// the default branch itself (one REST call more).
func TestReportCommandAppliesTheReport(t *testing.T) {
	cfg := reviewConfig("", "{id: review, type: agent, agent: reviewer, on_followup: {goto: review, max_iterations: 1, then: fail}}")
	h := newHarness(t, cfg)
	h.OpenPR7()
	assert.Contains(t, h.Fake.PR("acme/widgets", 7).Labels, "review-me", "the label dispatch")

	env := runtest.Command(h.Fake, h.Fake.BotToken())
	nonce := h.stateRuns(7)[0].Stages["review"].Nonce
	comments := h.Fake.Comments("acme/widgets", 7)
	require.NotEmpty(t, comments)
	assert.Contains(t, comments[0].Body, "--nonce "+nonce, "a label carries nothing: the status says the nonce")
	h.Fake.ResetStats()
	code, out := reportOut(t, env, `{"feedback": "more tests"}`, "--run", "review/7/1", "--stage", "review", "--attempt", "1",
		"--nonce", nonce, "--verdict", "followup", "--outputs", "-")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "agent reviewer reported followup (attempt 1)")
	assert.Contains(t, out, "agent reviewer dispatched for review (attempt 2)")
	assert.Equal(t, 1, h.Fake.Stats()["repos/get"], "the default branch read once")

	// The same report again: the stage is at attempt 2 now; refused, and still exit 0.
	code, out = reportOut(t, env, "", "--run", "review/7/1", "--stage", "review", "--attempt", "1", "--nonce", nonce, "--verdict", "followup")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "refused: the stage is at attempt 2, not 1")
	// Attempt 2, with attempt 1's nonce: a report of the earlier dispatch.
	code, out = reportOut(t, env, "", "--run", "review/7/1", "--stage", "review", "--attempt", "2", "--nonce", nonce, "--verdict", "complete")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "refused: its nonce is not the one of the stage's live attempt")
	assert.Equal(t, model.RunWaiting, h.stateRuns(7)[0].Status, "a refused report counts for nothing")

	// Inside Actions, from the inputs and the workflow_dispatch payload.
	ev := h.Fake.WorkflowDispatchEvent("acme/widgets", "agent.yml", "main", "dev", map[string]any{"run": "review/7/1"})
	path := filepath.Join(t.TempDir(), "event.json")
	require.NoError(t, os.WriteFile(path, ev.Payload, 0o600))
	env["GITHUB_ACTIONS"], env["GITHUB_EVENT_NAME"], env["GITHUB_EVENT_PATH"] = "true", "workflow_dispatch", path
	env["INPUT_COMMAND"], env["INPUT_RUN"], env["INPUT_STAGE"], env["INPUT_ATTEMPT"], env["INPUT_VERDICT"] = "report", "review/7/1", "review", "2", "complete"
	env["INPUT_OUTPUTS"], env["INPUT_NONCE"] = `{"summary": "ok"}`, h.stateRuns(7)[0].Stages["review"].Nonce
	h.Fake.ResetStats()
	var buf bytes.Buffer
	code = testMain(nil, strings.NewReader(""), &buf, &buf, func(k string) string { return env[k] })
	require.Equal(t, 0, code, buf.String())
	assert.Zero(t, h.Fake.Stats()["repos/get"], "the payload names the default branch")
	runs := h.stateRuns(7)
	require.Len(t, runs, 1)
	assert.Equal(t, model.RunCompleted, runs[0].Status)
	assert.Equal(t, map[string]any{"summary": "ok"}, runs[0].Stages["review"].Outputs)
}

// stateRuns reads the runs of PR n from the state branch.
func (h *harness) stateRuns(n int) []*model.Run {
	h.T.Helper()
	text, ok := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)[state.SubjectFile(true, n)]
	require.True(h.T, ok, "the state file of #%d", n)
	st, err := state.DecodeFile(text, "acme/widgets#"+strconv.Itoa(n))
	require.NoError(h.T, err)
	return st.Runs
}

func TestAgentRunRouting(t *testing.T) {
	payload := func(event, title, headRepoURL string) []byte {
		b, err := json.Marshal(map[string]any{
			"action":     "completed",
			"repository": map[string]any{"id": 1, "url": "https://api.github.com/repos/acme/widgets", "full_name": "acme/widgets", "default_branch": "main"},
			"sender":     map[string]any{"login": "github-actions[bot]"},
			"workflow_run": map[string]any{"event": event, "display_title": title, "conclusion": "failure", "head_sha": "abc",
				"pull_requests": []any{}, "head_repository": map[string]any{"id": 1, "url": headRepoURL},
				"id": 5000000001, "path": ".github/workflows/agent-implement.yml", "head_branch": "main",
				"actor": map[string]any{"login": "github-actions[bot]"}, "triggering_actor": map[string]any{"login": "mallory"}},
		})
		require.NoError(t, err)
		return b
	}
	here := "https://api.github.com/repos/acme/widgets"
	ev, err := route("workflow_run", payload("workflow_dispatch", "agent: run loop/7/1 stage implement attempt 2", here))
	require.NoError(t, err)
	assert.Equal(t, []int{7}, ev.Numbers)
	require.NotNil(t, ev.AgentFailure)
	assert.Equal(t, "loop/7/1", ev.AgentFailure.Run)
	assert.Equal(t, "implement", ev.AgentFailure.Stage)
	assert.Equal(t, 2, ev.AgentFailure.Attempt)
	assert.Contains(t, ev.AgentFailure.Why, "concluded failure")
	// What GitHub says of the run, for the engine to tell the agent's own from one posing as it.
	assert.Equal(t, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: 2, Why: ev.AgentFailure.Why,
		RunID: 5000000001, Path: ".github/workflows/agent-implement.yml", Branch: "main", Event: "workflow_dispatch",
		Actor: "github-actions[bot]", TriggeringActor: "mallory"}, *ev.AgentFailure)

	for name, p := range map[string][]byte{
		"a pull_request run names a run": payload("pull_request", "agent: run loop/7/1 stage implement attempt 2", here),
		"another title":                  payload("workflow_dispatch", "nightly", here),
		"not a run id":                   payload("workflow_dispatch", "agent: run x stage implement attempt 2", here),
	} {
		ev, err := route("workflow_run", p)
		require.NoError(t, err, name)
		assert.Nil(t, ev.AgentFailure, name)
	}
	// A head repository that is not this one (ids differ).
	b, _ := json.Marshal(map[string]any{"action": "completed",
		"repository":   map[string]any{"id": 1, "full_name": "acme/widgets"},
		"workflow_run": map[string]any{"event": "workflow_dispatch", "display_title": "agent: run loop/7/1 stage s attempt 1", "head_repository": map[string]any{"id": 2}}})
	ev, err = route("workflow_run", b)
	require.NoError(t, err)
	assert.Nil(t, ev.AgentFailure)
}

// A mistake in outputs read from a file is placed where the JSON goes wrong.
func TestOutputsAt(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{"{\n  \"a\": 1,\n  \"b\": tru\n}\n", "o.json:3:11: "},
		{"\n\n  {\"a\": 1,,}", "o.json:3:11: "},
		{"[1, 2]\n", "o.json:1:1: "},
		{"  \n \"text\"", "o.json:2:2: "},
		{"{\"a\": 1}\n{\"b\": 2}\n", "o.json:2:1: "},
		{"{\"a\": ", "o.json:1:7: "},
	} {
		_, err := decodeOutputs([]byte(tt.raw))
		if !assert.Error(t, err, tt.raw) {
			continue
		}
		got := outputsAt("o.json", []byte(tt.raw), err)
		assert.Equal(t, tt.want+err.Error(), got.Error(), "%q", tt.raw)
		assert.ErrorIs(t, got, err)
	}
	plain := errors.New("x")
	assert.Equal(t, plain, outputsAt("-", []byte("[]"), plain), "stdin has no file")
	assert.Equal(t, plain, outputsAt("", []byte("[]"), plain), "the input has no file")
}

// report prints a mistake in an --outputs file as file:line:col: message, first on its line.
func TestOutputsMistakePrintsFileLineCol(t *testing.T) {
	var stderr bytes.Buffer
	bad := func(string, ...any) int { t.Fatal("a file's mistake is not a usage mistake"); return 0 }
	_, err := decodeOutputs([]byte("[1]"))
	assert.Equal(t, 2, outputsMistake(&stderr, "out.json", []byte("[1]"), err, bad))
	assert.Equal(t, "out.json:1:1: "+err.Error()+"\n", stderr.String())
	called := false
	outputsMistake(&stderr, "-", []byte("[1]"), err, func(string, ...any) int { called = true; return 2 })
	assert.True(t, called, "stdin's mistake goes with the usage")
}

// reviewConfig is a config whose pipeline review starts when a pull request opens and runs
// stages, with the agent reviewer dispatched by the label review-me; settings is the
// config's settings line, or "".
func reviewConfig(settings string, stages ...string) string {
	cfg := "version: 1\n" + settings + "agents:\n  reviewer: {dispatch: label, label: review-me}\n" +
		"pipelines:\n  review:\n    trigger: {event: pull_request.opened}\n    stages:\n"
	for _, s := range stages {
		cfg += "      - " + s + "\n"
	}
	return cfg
}
