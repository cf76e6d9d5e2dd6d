package state

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

var update = flag.Bool("update", false, "rewrite golden files")

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func testConfig() *engine.Config {
	return &engine.Config{Version: 1, Pipelines: []*engine.Pipeline{
		{
			Name: "auto-merge", Description: "Merge reviewed, green PRs into main",
			Stages: []*engine.Stage{
				{ID: "ready", Type: engine.StageGate},
				{ID: "merge", Type: engine.StageAction, Action: engine.ActionMergePR},
			},
		},
		{
			Name: "label-sync",
			Stages: []*engine.Stage{
				{ID: "has-label", Type: engine.StageGate, OnFail: engine.TargetFail},
				{ID: "mark", Type: engine.StageAction, Action: engine.ActionAddLabel},
			},
		},
	}}
}

func waitingRun() *engine.Run {
	return &engine.Run{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
		Status: engine.RunWaiting, Stage: "ready", StartedAt: t0, UpdatedAt: at(5),
		Stages: map[string]*engine.StageRun{"ready": {
			Status: engine.StageWaiting, Attempt: 1, EnteredAt: t0,
			Results: []engine.GateResult{
				{Check: "human_approved", Status: engine.GatePending, Message: "needs 1 approving review from someone with write access; has 0", Who: "a reviewer with write access"},
				{Check: "no_changes_requested", Status: engine.GatePass, Message: "no changes requested"},
				{Check: "ci_status", Status: engine.GateFail, Message: `check "test" failed`, Who: "CI on abc1234"},
				{Check: "label_present", Status: engine.GateFail, Optional: true, Message: `needs label "automerge"`},
				{Check: "mergeable", Status: engine.GateError, Message: "mergeability <unknown> | not computed yet", Who: "GitHub"},
			},
		}},
		History: []engine.Transition{{At: t0, Actor: "dev", To: "ready", Why: "pull_request.opened"}},
	}
}

func retryingRun() *engine.Run {
	return &engine.Run{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
		Status: engine.RunWaiting, Stage: "merge", StartedAt: t0, UpdatedAt: at(30),
		Stages: map[string]*engine.StageRun{
			"ready": {Status: engine.StagePassed, Attempt: 1, EnteredAt: t0},
			"merge": {Status: engine.StageRetrying, Attempt: 1, Tries: 2, EnteredAt: at(20),
				Message: "merge refused: Pull Request is not mergeable; tried 2 times; trying again on the next event"},
		},
		History: []engine.Transition{
			{At: t0, Actor: "dev", To: "ready", Why: "pull_request.opened"},
			{At: at(20), Actor: "alice", From: "ready", To: "merge", Why: "all conditions hold"},
		},
	}
}

func completedRun() *engine.Run {
	r := retryingRun()
	r.Status = engine.RunCompleted
	r.Stages["merge"] = &engine.StageRun{Status: engine.StageSucceeded, Attempt: 1, EnteredAt: at(20)}
	r.History = append(r.History, engine.Transition{At: at(40), Actor: "github-actions[bot]", From: "merge", To: "complete", Why: "merged"})
	return r
}

func cancelledRun() *engine.Run {
	r := waitingRun()
	r.Status = engine.RunCancelled
	r.Message = "pull request closed"
	r.Stages["ready"].Status = engine.StageCancelled
	r.History = append(r.History, engine.Transition{At: at(90), Actor: "dev", From: "ready", To: engine.TargetCancelled, Why: "pull request closed"})
	return r
}

func labelRun() *engine.Run {
	return &engine.Run{
		ID: "label-sync/7/1", Pipeline: "label-sync", Subject: "acme/widgets#7",
		Status: engine.RunFailed, Stage: "has-label", StartedAt: at(10), UpdatedAt: at(11),
		Message: `label "sync" missing`,
		Stages:  map[string]*engine.StageRun{"has-label": {Status: engine.StageFailed, Attempt: 1, EnteredAt: at(10)}},
		History: []engine.Transition{
			{At: at(10), Actor: "dev", To: "has-label", Why: "pull_request.labeled"},
			{At: at(11), Actor: "dev", From: "has-label", To: "fail", Why: `label "sync" missing`},
		},
	}
}

func renamedRun() *engine.Run {
	r := retryingRun()
	r.Pipeline = "automerge-old"
	r.ID = "automerge-old/7/1"
	return r
}

func state(runs ...*engine.Run) *engine.State {
	return &engine.State{Version: 1, Subject: "acme/widgets#7", Seq: len(runs), Runs: runs}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		st   *engine.State
	}{
		{name: "waiting_gate", st: state(waitingRun())},
		{name: "retrying_merge", st: state(retryingRun())},
		{name: "completed", st: state(completedRun())},
		{name: "cancelled", st: state(cancelledRun())},
		{name: "two_runs", st: state(waitingRun(), labelRun())},
		{name: "missing_pipeline", st: state(renamedRun())},
		{name: "no_runs", st: state()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(testConfig(), tt.st)
			assert.Equal(t, got, Render(testConfig(), tt.st), "deterministic")
			assert.NotContains(t, got, "<!--", "rendered text never holds a marker")
			checkGolden(t, filepath.Join("testdata", tt.name+".md"), got)
		})
	}
}

func TestRenderEscapesMarker(t *testing.T) {
	r := waitingRun()
	fake, err := Encode(&engine.State{Version: 1, Subject: "evil#1"})
	require.NoError(t, err)
	r.Stages["ready"].Results[0].Message = fake
	r.History[0].Why = fake
	body, err := Body(testConfig(), state(r))
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(body, markerPrefix))
	st, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "acme/widgets#7", st.Subject)
}

func TestRenderNil(t *testing.T) {
	got := Render(nil, nil)
	assert.Contains(t, got, "No pipeline has run here yet.")
	got = Render(nil, state(waitingRun()))
	assert.Contains(t, got, "no longer in the config")
	assert.NotContains(t, got, "```mermaid")
}

// checkGolden compares got with the file at path, or rewrites it under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}

// inertViolation names the first way s could do something when GitHub renders it as
// Markdown inside a table cell or list item, or "".
func inertViolation(s string) string {
	unescaped := func(i int) bool { // s[i] is not preceded by an odd run of backslashes
		n := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		return n%2 == 0
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			return "a line break"
		case c == '<' || c == '>':
			return "raw HTML"
		case (c == '[' || c == ']' || c == '`' || c == '|') && unescaped(i):
			return fmt.Sprintf("an unescaped %q", c)
		case c == '&' && !strings.HasPrefix(s[i:], "&amp;") && !strings.HasPrefix(s[i:], "&lt;") && !strings.HasPrefix(s[i:], "&gt;"):
			return "an entity"
		case (c == '@' || c == '#') && !strings.HasPrefix(s[i+1:], "\u2060"):
			return fmt.Sprintf("a live %q", c)
		}
	}
	if strings.Contains(s, "://") || strings.Contains(strings.ToLower(s), "www.") {
		return "an autolink"
	}
	return ""
}

func TestEscRendersUntrustedTextInert(t *testing.T) {
	hostile := []string{
		"@org/security-team please look",
		"![x](https://evil.example/pixel.png)",
		"[click](https://evil.example)",
		"see www.evil.example and https://evil.example/a",
		"fixes #12 and org/other#34",
		"mail me at a@b.example",
		"&#64;org/team &lt;img&gt;",
		"`code` \\[not a link\\](x) \\",
		"line1\nline2\r\n| cell |",
		"<img src=x onerror=alert(1)>",
	}
	for _, h := range hostile {
		got := esc(h)
		assert.Empty(t, inertViolation(got), "esc(%q) = %q", h, got)
	}
	// What is harmless stays as written.
	assert.Equal(t, "check \"test\" failed (ci_status)", esc("check \"test\" failed (ci_status)"))
}

// A PR-controlled string (a check name, here) reaches the status through a gate's
// message and the history, and is inert in both.
func TestRenderUntrustedGateMessageIsInert(t *testing.T) {
	evil := "@org/team ![x](https://evil.example/p.png) [go](https://evil.example)"
	st := &engine.State{Version: 1, Runs: []*engine.Run{{
		ID: "p/7/1", Pipeline: "p", Status: engine.RunWaiting, Stage: "ready", StartedAt: at(0),
		Stages: map[string]*engine.StageRun{"ready": {Status: engine.StageWaiting, Attempt: 1, EnteredAt: at(0),
			Results: []engine.GateResult{{Check: "ci_status", Status: engine.GateFail, Message: `check "` + evil + `" failed`, Who: evil}}}},
		History: []engine.Transition{{At: at(0), Actor: "mallory", To: "ready", Why: evil}},
	}}}
	out := Render(nil, st)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "org/team") {
			// Only the untrusted parts are checked: the rendered line's own Markdown
			// (bold check names, emphasis, table pipes) is ours.
			i := strings.Index(line, "@")
			j := strings.LastIndex(line, "evil.example)")
			require.True(t, i >= 0 && j > i, line)
			assert.Empty(t, inertViolation(line[i:j+len("evil.example")]), line)
		}
	}
	assert.NotRegexp(t, `[^\\]\]\(`, out, "no link or image: every ] before ( is escaped")
	assert.NotContains(t, out, "![")
}

func FuzzEsc(f *testing.F) {
	for _, s := range []string{"@a", "![x](y)", "https://x", "&#64;", "a\\|b", "www.x", "#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v := inertViolation(esc(s)); v != "" {
			t.Fatalf("esc(%q) = %q has %s", s, esc(s), v)
		}
	})
}
