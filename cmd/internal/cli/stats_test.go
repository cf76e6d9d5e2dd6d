package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// stats reads 26 subjects in 1 + ⌈26/25⌉ = 3 GraphQL queries: the listing and two batches.
func TestStatsReadsSubjectsInBatches(t *testing.T) {
	h := newHarness(t, loopConfig)
	for n := 1; n <= 26; n++ {
		code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: n, Author: "dev"}))
		require.Equal(t, 0, code, log)
	}
	env := map[string]string{"GITHUB_TOKEN": h.Fake.Token("alice"), "GITHUB_REPOSITORY": "acme/widgets",
		"GITHUB_GRAPHQL_URL": h.Fake.URL + "/api/graphql"}
	h.Fake.ResetStats()
	var out, errOut bytes.Buffer
	code := Main([]string{"stats", "--format", "json"}, nil, &out, &errOut, func(k string) string { return env[k] })
	require.Equal(t, 0, code, errOut.String())
	assert.Equal(t, map[string]int{"graphql": 3}, h.Fake.Stats())
	var rep struct {
		Subjects  int
		Pipelines []struct {
			Name          string
			Started, Open int
		}
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.Equal(t, 26, rep.Subjects)
	require.Len(t, rep.Pipelines, 1)
	assert.Equal(t, []any{"review", 26, 26}, []any{rep.Pipelines[0].Name, rep.Pipelines[0].Started, rep.Pipelines[0].Open})
}

// Without a state branch there is nothing to report, in one query.
func TestStatsWithoutAStateBranch(t *testing.T) {
	h := newHarness(t, loopConfig)
	env := map[string]string{"GITHUB_TOKEN": h.Fake.Token("alice"), "GITHUB_REPOSITORY": "acme/widgets",
		"GITHUB_GRAPHQL_URL": h.Fake.URL + "/api/graphql"}
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, Main([]string{"stats"}, nil, &out, &errOut, func(k string) string { return env[k] }))
	assert.Contains(t, errOut.String(), "acme/widgets has no state branch pipeline-action/state")
	assert.Equal(t, map[string]int{"graphql": 1}, h.Fake.Stats())
}
