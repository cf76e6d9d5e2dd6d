package run

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/sethvargo/go-githubactions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// writesSeen lists the write requests the fake received: REST writes and GraphQL mutations.
func writesSeen(fake *ghfake.Server) []string {
	var out []string
	for _, c := range fake.Calls() {
		if c.Mutation || c.Kind != "graphql" && c.Method != http.MethodGet && c.Method != http.MethodHead {
			out = append(out, c.Method+" "+c.Path)
		}
	}
	return out
}

func dryRunOn(env map[string]string) { env["INPUT_DRY_RUN"] = "true" }

// TestDryRunWritesNothingAndSaysWhatItWould: with dry_run, an event whose evaluation
// merges writes nothing — no state, no comment, no merge, no branch deletion — and the job
// log and the job summary say what it would have done.
func TestDryRunWritesNothingAndSaysWhatItWould(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	h.Fake.Review("acme/widgets", 7, "alice", "APPROVED", "")
	ev := h.Fake.CompleteCheck("acme/widgets", 7, "test", "success", "")
	code, log, outputs, summary := h.DeliverWith(ev, dryRunOn)
	require.Equal(t, 0, code, log)
	assert.Empty(t, writesSeen(h.Fake))
	assert.False(t, h.Fake.PR("acme/widgets", 7).Merged)
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7))
	assert.Nil(t, h.Fake.BranchFiles("acme/widgets", "pipeline-action/state"), "no state branch")

	assert.Contains(t, log, "dry run: every event is evaluated and nothing is written")
	assert.Contains(t, log, "dry run: would merge #7 (squash) at")
	assert.Contains(t, log, "then delete its branch feat/x")
	assert.Contains(t, log, "dry run: would save the state of #7 (pr-7.json on pipeline-action/state)")
	assert.Contains(t, summary, "**Dry run: nothing was written.**")
	assert.Contains(t, summary, "- dry run: would `merge #7 (squash) at")
	assert.Contains(t, outputs, "completed", "the outputs are those of the run it would have")
}

// TestDryRunInputMustBeTrueOrFalse: a dry_run that is neither true nor false stops the
// invocation before it reads or writes anything, rather than running for real.
func TestDryRunInputMustBeTrueOrFalse(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
	code, log, _, _ := h.DeliverWith(ev, func(env map[string]string) { env["INPUT_DRY_RUN"] = "yes" })
	assert.Equal(t, 2, code)
	assert.Contains(t, log, `input dry_run: "yes" is neither true nor false`)
	assert.Empty(t, h.Fake.Calls())
}

// TestDryClientRefusesWrites: a dry invocation's client is read-only, so an effect that
// reached it in spite of the dry path would be refused before it is sent.
func TestDryClientRefusesWrites(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
	env := map[string]string{"INPUT_TOKEN": h.Fake.BotToken(), "GITHUB_API_URL": h.Fake.URL + "/api/v3",
		"GITHUB_GRAPHQL_URL": h.Fake.URL + "/api/graphql"}
	var log bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: time.Now, dry: &dryRun{}}
	r.act = githubactions.New(githubactions.WithGetenv(r.Getenv), githubactions.WithWriter(r.Out))
	client, err := r.client("acme/widgets")
	require.NoError(t, err)
	for _, e := range []model.Effect{
		{Key: "a/1/ready/1/add_label", Kind: model.EffectAddLabel, Number: 7, Labels: []string{"x"}},
		{Key: "a/1/merge/1/merge_pr", Kind: model.EffectMerge, Number: 7, Method: "squash"},
		{Key: "a/1/c/1/comment", Kind: model.EffectComment, Number: 7, Body: "hi"},
	} {
		o := client.Perform(t.Context(), e)
		assert.Contains(t, o.Err, "read-only: refused", e.Key)
	}
	assert.Empty(t, writesSeen(h.Fake))
}

// TestDrySweepWritesNothing: a sweep with dry_run over runs whose deadline passed
// evaluates them — their timeouts fail them — and writes nothing; the sweep after it,
// without dry_run, finds them due still and acts.
func TestDrySweepWritesNothing(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	f := sweepWorld(t, 2, t0)
	later := t0.Add(2 * time.Hour)
	code, log, writes := sweepAt(t, f, later, map[string]string{"DRY_RUN": "true"})
	require.Equal(t, 0, code, log)
	assert.Equal(t, 0, writes, log)
	assert.Contains(t, log, `run signoff/1/1 failed: stage "signoff" timed out`)
	assert.Contains(t, log, "dry run: would save the state of #1")
	assert.Contains(t, log, "dry run: would save the state of #2")
	assert.Contains(t, log, "**Dry run: nothing was written.**")

	code, log, writes = sweepAt(t, f, later, nil)
	require.Equal(t, 0, code, log)
	assert.Positive(t, writes, "the real sweep finds both due and saves them")
	assert.NotContains(t, log, "dry run")
}
