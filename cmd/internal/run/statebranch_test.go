package run

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// Someone with write access pushes a state file claiming the run is at its merge: the
// file was not written by the action through GitHub's API, so it is ignored (the job log
// and the status say so, once), the run goes on from the state comment, and the action
// writes the file anew.
func TestRunIgnoresAPushedStateFile(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	h.Fake.AddUser("mallory", "write")
	h.OpenPR7()
	files := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)
	st, err := state.DecodeFile(files["pr-7.json"], "acme/widgets#7")
	require.NoError(t, err)
	forged := *st
	run := *st.Runs[0]
	run.Stage, run.Status = "merge", model.RunRunning
	run.Stages = map[string]*model.StageRun{"merge": {Status: model.StageWaiting, Attempt: 1}}
	forged.Runs, forged.Seq = []*model.Run{&run}, st.Seq+10
	text, err := state.EncodeFile(&forged)
	require.NoError(t, err)
	for _, author := range []string{"mallory", ghfake.BotLogin} { // as themselves, or claiming to be the action
		pushed, err := h.Fake.PushCommit("acme/widgets", lang.DefaultStateBranch, ghfake.GitPush{Pusher: "mallory", Author: author,
			Files: map[string]string{"pr-7.json": text}})
		require.NoError(t, err)

		code, log, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 7, "x-"+author, true))
		require.Equal(t, 0, code, log)
		assert.Contains(t, log, "::warning::#7: the state file on pipeline-action/state was ignored: pr-7.json was last changed")
		assert.False(t, h.Fake.PR("acme/widgets", 7).Merged, "the forged state merges nothing")
		comment := h.Fake.Comments("acme/widgets", 7)[0].Body
		assert.Contains(t, comment, "the state file on the state branch was ignored")
		assert.Contains(t, comment, "waiting at")
		again, err := state.DecodeFile(h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)["pr-7.json"], "acme/widgets#7")
		require.NoError(t, err)
		assert.Equal(t, "ready", again.Runs[0].Stage, "written anew from the comment")
		assert.Equal(t, pushed, again.Ignored[len(again.Ignored)-1].Commit)
		last := h.Fake.BranchLog("acme/widgets", lang.DefaultStateBranch)[0]
		assert.True(t, last.SignedByGitHub)
		assert.Equal(t, ghfake.BotLogin, last.Author)

		// Reported once: the next event does not warn again.
		code, log, _, _ = h.Deliver(h.Fake.Label("acme/widgets", 7, "y-"+author, true))
		require.Equal(t, 0, code, log)
		assert.NotContains(t, log, "was ignored")
	}
}

// Nothing changed: one read, no write at all.
func TestRunNothingChangedWritesNothing(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	log := h.OpenPR7()
	head, _ := h.Fake.BranchHead("acme/widgets", lang.DefaultStateBranch)
	h.Fake.ResetStats()
	ev, _ := h.Fake.Comment("acme/widgets", 7, "dev", "any news?")
	code, log, _, _ := h.Deliver(ev)
	require.Equal(t, 0, code, log)
	assert.Equal(t, map[string]int{"graphql": 1}, h.Fake.Stats())
	after, _ := h.Fake.BranchHead("acme/widgets", lang.DefaultStateBranch)
	assert.Equal(t, head, after)
}

// settings.state_branch names the branch; reading it costs one more query per event.
func TestRunCustomStateBranch(t *testing.T) {
	h := newHarness(t, strings.Replace(exampleYAML(t), "version: 1\n", "version: 1\nsettings: {state_branch: ci/state}\n", 1))
	h.Fake.ResetStats()
	h.OpenPR7()
	assert.Contains(t, h.Fake.BranchFiles("acme/widgets", "ci/state"), "pr-7.json")
	assert.Nil(t, h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch))
	assert.Equal(t, 3, h.Fake.Stats()["graphql"], "two reads, the branch created with the state committed on it")
	assert.Contains(t, h.Fake.BranchLog("acme/widgets", "ci/state")[0].Message, "pr-7 auto-merge: start → ready (pull_request.opened by dev)")
}
