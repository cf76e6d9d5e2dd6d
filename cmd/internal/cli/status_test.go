package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/state"
)

// status prints the open runs of the index in one query, and says who wrote it.
func TestStatusListsOpenRuns(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	status := func(args ...string) (int, string, string) {
		env := runtest.Command(h.Fake, h.Fake.Token("alice"))
		var out, errOut bytes.Buffer
		code := Main(append([]string{"status"}, args...), nil, &out, &errOut, func(k string) string { return env[k] })
		return code, out.String(), errOut.String()
	}
	code, out, _ := status()
	require.Equal(t, 0, code)
	assert.Equal(t, "acme/widgets has no state branch pipeline-action/state: no run has been saved there yet.\n", out)

	for _, n := range []int{7, 8} {
		code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: n, Author: "dev"}))
		require.Equal(t, 0, code, log)
	}
	h.Fake.ResetStats()
	code, out, _ = status()
	require.Equal(t, 0, code)
	assert.Equal(t, map[string]int{"graphql": 1}, h.Fake.Stats(), "one query")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5, out)
	assert.Regexp(t, `^SUBJECT\s+PIPELINE\s+STATUS\s+STAGE\s+UPDATED\s+NEXT DEADLINE\s+RUN$`, lines[0])
	assert.Regexp(t, `^acme/widgets#7\s+auto-merge\s+waiting\s+ready\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+-\s+auto-merge/7/1$`, lines[1])
	assert.Regexp(t, `^acme/widgets#8\s+auto-merge\s+waiting\s+ready\s+`, lines[2])
	assert.Regexp(t, `^2 open runs, from the index on pipeline-action/state at [0-9a-f]{7}, last written by github-actions\[bot\] \(signed by GitHub\)\.$`, lines[4])

	// Another branch name, which does not exist; bad usage.
	code, out, _ = status("--branch", "ci/state")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "no state branch ci/state")
	code, _, errOut := status("extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "takes no arguments")
}

func TestStatusNeedsATokenAndARepository(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"status"}, nil, &out, &errOut, func(string) string { return "" })
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), "no token")
	errOut.Reset()
	code = Main([]string{"status"}, nil, &out, &errOut, func(k string) string {
		if k == "GITHUB_TOKEN" {
			return "t"
		}
		return ""
	})
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), "no repository")
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, "a?b?c", run.OneLine("a\nb\tc"))
	assert.Equal(t, "?[2J??[31m?é", run.OneLine("\x1b[2J\u009b\x1b[31m\x7fé"))
}

func TestStatusShowsTheNextDeadline(t *testing.T) {
	at := time.Date(2026, 1, 6, 9, 30, 0, 0, time.UTC)
	var out bytes.Buffer
	printIndex(&out, &state.Index{Runs: []state.IndexEntry{{Run: "p/7/1", Pipeline: "p", Subject: "acme/widgets#7", File: "pr-7.json",
		Status: "waiting", Stage: "signoff", Updated: at.Add(-time.Hour), NextDeadline: at}}})
	assert.Regexp(t, `acme/widgets#7\s+p\s+waiting\s+signoff\s+2026-01-06 08:30:00\s+2026-01-06 09:30:00\s+p/7/1`, out.String())
}

// The end of a claim to post a state comment is listed as what it is, not as a run.
func TestStatusShowsAStateCommentToPost(t *testing.T) {
	at := time.Date(2026, 1, 6, 9, 30, 0, 0, time.UTC)
	var out bytes.Buffer
	printIndex(&out, &state.Index{Runs: []state.IndexEntry{{Subject: "acme/widgets#7", File: "pr-7.json",
		Status: "waiting", Updated: at, NextDeadline: at}}})
	assert.Regexp(t, `acme/widgets#7\s+-\s+waiting\s+state comment to post\s+2026-01-06 09:30:00\s+2026-01-06 09:30:00\s+-`, out.String())
}
