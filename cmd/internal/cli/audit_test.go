package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/state"
)

const loopConfig = `version: 1
pipelines:
  review:
    trigger: {event: pull_request.opened}
    stages:
      - id: approval
        type: human
        wait_for: approval
        on_complete: complete
`

// A run that goes round 80 times keeps all 80 transitions on the state branch, in
// order (30 cut from its history: a full part of 25 and 5 in the file's tail); its status
// shows where it began and the newest, and says what lies between.
func TestAuditKeepsTheWholeTrail(t *testing.T) {
	h := newHarness(t, loopConfig)
	h.OpenPR7()
	// GitHub stamps comments to the second: these are written after the run started.
	h.Fake.SetClock(func() time.Time { return time.Now().Add(2 * time.Second) })
	for i := 2; i <= 80; i++ {
		ev, _ := h.Fake.Comment("acme/widgets", 7, "alice", "/pipeline retry")
		code, log, _, _ := h.Deliver(ev)
		require.Equal(t, 0, code, log)
		require.NotContains(t, log, "not acted on")
	}
	audit := func(args ...string) (int, string, string) {
		env := runtest.Command(h.Fake, h.Fake.Token("alice"))
		var out, errOut bytes.Buffer
		code := Main(append([]string{"audit"}, args...), nil, &out, &errOut, func(k string) string { return env[k] })
		return code, out.String(), errOut.String()
	}
	h.Fake.ResetStats()
	code, out, errOut := audit("--pr", "7", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, map[string]int{"graphql": 1}, h.Fake.Stats(), "one query")
	var rows []state.AuditEntry
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e state.AuditEntry
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		rows = append(rows, e)
	}
	require.Len(t, rows, 80, out)
	assert.Equal(t, "approval", rows[0].To)
	assert.Contains(t, rows[0].Why, "pull_request.opened")
	for i, r := range rows {
		assert.Equal(t, rows[0].Run, r.Run, "row %d: one run", i)
		if i > 0 {
			assert.Equal(t, "approval", r.From, "row %d", i)
			assert.False(t, r.At.Before(rows[i-1].At), "row %d is in order", i)
		}
	}
	parts := h.Fake.BranchFiles("acme/widgets", "pipeline-action/state")["audit/pr-7/0001.jsonl"]
	assert.Equal(t, 25, strings.Count(parts, "\n"), "a full part")
	assert.Contains(t, parts, `"why":"/pipeline retry by alice"`)
	assert.NotContains(t, h.Fake.BranchFiles("acme/widgets", "pipeline-action/state"), "audit/pr-7/0002.jsonl")

	code, text, _ := audit("--number", "7", "--strict")
	require.Equal(t, 0, code, text)
	assert.Contains(t, text, "80 transitions of acme/widgets#7")
	assert.NotContains(t, text, "UNVERIFIED")

	// A part anyone who may push wrote beside the action's is printed, marked, and fails
	// --strict; the action's own rows stay unmarked.
	forged := fmt.Sprintf(`{"at":%q,"run":%q,"pipeline":"review","actor":"alice","from":"approval","to":"complete","why":"approved by the maintainers"}`+"\n",
		rows[40].At.Format(time.RFC3339Nano), rows[0].Run)
	h.Fake.SetFile("acme/widgets", "pipeline-action/state", "audit/pr-7/0002.jsonl", forged)
	code, text, _ = audit("--pr", "7")
	assert.Equal(t, 0, code, text)
	assert.Contains(t, text, "81 transitions of acme/widgets#7")
	assert.Regexp(t, `approval → complete  UNVERIFIED approved by the maintainers`, text)
	assert.Equal(t, 1, strings.Count(text, "UNVERIFIED approved"), "the action's rows are not marked")
	assert.Contains(t, text, "\nUNVERIFIED: audit/pr-7/0002.jsonl: the subject's file records no SHA-256 of it")
	code, _, _ = audit("--pr", "7", "--strict")
	assert.Equal(t, 1, code)
	_, out, _ = audit("--pr", "7", "--format", "json")
	assert.Contains(t, out, `"why":"approved by the maintainers","unverified":"audit/pr-7/0002.jsonl: `)
	assert.Equal(t, 1, strings.Count(out, `"unverified"`))

	var status string
	for _, c := range h.Fake.Comments("acme/widgets", 7) {
		if strings.Contains(c.Body, "History (") {
			status = c.Body
		}
	}
	assert.Contains(t, status, "History (80, first 5 and newest 45 shown)")
	assert.Contains(t, status, fmt.Sprintf("| | … | %d rows between: `pipeline-action audit --repo acme/widgets --number 7` prints the whole trail | |", 30))
	assert.Contains(t, status, "started on pull_request.opened", "where the run began")
}

func TestAuditUsage(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"GITHUB_TOKEN": "t", "GITHUB_REPOSITORY": "acme/widgets"}[k]
	}
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, Main([]string{"audit"}, nil, &out, &errOut, env))
	assert.Contains(t, errOut.String(), "give one of --pr N")
	errOut.Reset()
	assert.Equal(t, 2, Main([]string{"audit", "--pr", "7", "--format", "xml"}, nil, &out, &errOut, env))
	assert.Contains(t, errOut.String(), "--format is text or json")
}
