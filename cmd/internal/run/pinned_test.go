package run

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
	"github.com/org/pipeline-action/state"
)

const (
	strictConfig = "version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n" +
		"      - {id: ok, type: gate, conditions: [{check: human_approved, count: 1}], on_pass: m}\n" +
		"      - {id: m, type: action, action: merge_pr, on_success: complete}\n"
	// A PR's branch carries the same pipeline merging at once, split over the file and the
	// directory.
	permissiveFile = "version: 1\n"
	permissiveDir  = "pipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n" +
		"      - {id: m, type: action, action: merge_pr, on_success: complete}\n"
)

// A run keeps the config it started under while the default branch moves on; a trusted
// state that pins a config written on a PR's branch (file and directory) is not followed:
// the run follows the config of the default branch, says why, and merges nothing its gate
// does not allow.
func TestRunPinnedConfigComesFromTheDefaultBranchOnly(t *testing.T) {
	ctx := t.Context()
	h := newHarness(t, strictConfig)
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"}))
	require.Equal(t, 0, code, log)
	require.Len(t, h.Fake.Comments("acme/widgets", 7), 1)
	st := h.stateOf(7) // the state comment shows it; its state is bound in by the next edit
	require.Len(t, st.Runs, 1)
	started := st.Runs[0].ConfigOID
	require.NotEmpty(t, started)

	// The default branch moves on (two approvals now): the run keeps its config, quietly.
	h.Fake.SetFile("acme/widgets", "main", DefaultConfigPath, strings.Replace(strictConfig, "count: 1", "count: 2", 1))
	code, log, _, _ = h.Deliver(h.Fake.Label("acme/widgets", 7, "x", true))
	require.Equal(t, 0, code, log)
	assert.NotContains(t, log, "cannot be used now")

	// The PR's branch gets a config that merges at once; another workflow posting as the
	// action (GITHUB_TOKEN) writes a state, bound to its comment, that pins it.
	h.Fake.SetFile("acme/widgets", "feat/x", DefaultConfigPath, permissiveFile)
	h.Fake.SetFile("acme/widgets", "feat/x", ".github/pipelines/p.yaml", permissiveDir)
	bot := botClient(t, h.Fake)
	onPR, err := bot.Snapshot(ctx, 7, "feat/x", DefaultConfigPath)
	require.NoError(t, err)
	require.Contains(t, onPR.Config.ID, "+tree:", "the PR's config has a file and a directory")
	cfg, err := engine.LoadFiles([]load.SourceFile{
		{Path: DefaultConfigPath, Src: []byte(permissiveFile)}, {Path: ".github/pipelines/p.yaml", Src: []byte(permissiveDir)}}, gates.Default())
	require.NoError(t, err)
	comments := h.Fake.Comments("acme/widgets", 7)
	st = h.stateOf(7)
	run := st.Runs[0]
	run.ConfigOID, run.Stage = onPR.Config.ID, "m"
	run.Stages = map[string]*model.StageRun{"m": {Status: model.StageWaiting, Attempt: 1, EnteredAt: run.StartedAt}}
	st.Seq++ // newer than the state branch's: it is taken for a state the branch lost
	body, err := state.Body(cfg, st)
	require.NoError(t, err)
	body, err = state.Bind(body, comments[0].ID)
	require.NoError(t, err)
	require.NoError(t, bot.UpdateComment(ctx, comments[0].ID, body))
	_, why, err := state.Check(trustedComment(h.Fake.Comments("acme/widgets", 7)[0]))
	require.NoError(t, err)
	require.Empty(t, why, "the crafted state passes the trust checks")

	code, log, _, _ = h.Deliver(h.Fake.Label("acme/widgets", 7, "y", true))
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "run "+run.ID+" started under config "+onPR.Config.ID+", which cannot be used now (it is not one of the last 100 versions of the config on main, or its files are gone); it follows the current config")
	assert.False(t, h.Fake.PR("acme/widgets", 7).Merged, "the gate of the default branch's config holds nothing")
	st, _, err = state.Check(trustedComment(h.Fake.Comments("acme/widgets", 7)[0]))
	require.NoError(t, err)
	assert.Equal(t, "ok", st.Runs[0].Stage)
}
