package sim

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
	"github.com/org/pipeline-action/state"
)

// A flood of comments by someone without authority is read once and answered once: the
// events after it cost what they cost on a quiet pull request, and the state records
// how far the comments were read.
func TestCommentFloodIsReadOnceAndAnsweredOnce(t *testing.T) {
	sim := playDir(t, "comment-flood")
	var replies int
	var st string
	for _, c := range sim.fake.Comments(sim.sc.Repo, 7) {
		if c.Author != ghfake.BotLogin {
			continue
		}
		if strings.HasPrefix(c.Body, "@mallory ") {
			replies++
		}
		if state.HasMarker(c.Body) {
			st = c.Body
		}
	}
	assert.Equal(t, 1, replies, "one reply for 1,651 comments")
	decoded, found, err := state.Decode(st)
	require.NoError(t, err)
	require.True(t, found)
	assert.NotZero(t, decoded.CommentsRead)
	assert.NotEmpty(t, decoded.StateComment)
	require.Len(t, decoded.Refused, 1)
	assert.Equal(t, "mallory", decoded.Refused[0].Login)

	calls := map[int]map[string]int{}
	for _, s := range sim.stats {
		calls[s.step] = s.calls
	}
	assert.Equal(t, 14, calls[2]["graphql"], "the first event after the 1,200 comments reads them: 11 pages")
	// Steps 5 and 6: mallory's /pipeline skip (refused again, not replied to) and alice's
	// /pipeline approve, after 1,500 comments.
	for _, step := range []int{5, 6} {
		got := calls[step]
		require.NotNil(t, got, "step %d", step)
		assert.Equal(t, 2, got["graphql"], "step %d: the read and the state's commit, as on a quiet PR", step)
		assert.Equal(t, 1, got["issues/update-comment"], "step %d", step)
		assert.Zero(t, got["issues/create-comment"], "step %d: no reply", step)
	}
}

// How far back an event reads: to what the state read, and to the entry of a waiting
// wait_for: comment stage that counts several comments (not of a stage waiting for one,
// or for anything else); a state whose
// comment was not found and that does not name it reads every comment.
func TestCommentsNeed(t *testing.T) {
	src, err := os.ReadFile("testdata/scenarios/comment-flood/pipelines.yaml")
	require.NoError(t, err)
	cfg, err := engine.Load("p.yaml", src, gates.Default())
	require.NoError(t, err)
	entered := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := &model.State{Version: 1, Seq: 4, CommentsRead: 900, StateComment: "IC_1", Runs: []*model.Run{{
		ID: "review/7/1", Pipeline: "review", Status: model.RunWaiting, Stage: "approval",
		Stages: map[string]*model.StageRun{"approval": {Status: model.StageWaiting, EnteredAt: entered}},
	}}}
	found := state.Version{CommentID: 5}
	assert.Equal(t, ghapi.CommentsNeed{Since: 900, StateComment: "IC_1"}, run.CommentsNeed(cfg, st, found),
		"an approval stage counts no comments")

	st.Runs[0].Stage = "go-ahead"
	st.Runs[0].Stages["go-ahead"] = &model.StageRun{Status: model.StageWaiting, EnteredAt: entered.Add(time.Hour)}
	st.Runs[0].Stages["approval"].Status = model.StagePassed
	assert.Equal(t, ghapi.CommentsNeed{Since: 900, StateComment: "IC_1"}, run.CommentsNeed(cfg, st, found),
		"one comment moves the stage: any older one that counted would have moved it already")
	cfg.Pipeline("review").Stage("go-ahead").Count = 2
	assert.Equal(t, ghapi.CommentsNeed{Since: 900, From: entered.Add(time.Hour), StateComment: "IC_1"}, run.CommentsNeed(cfg, st, found),
		"two comments: every comment since the stage was entered")

	st.Runs[0].Stages["approval"].Approvals = []model.Approval{{Login: "alice", Comment: 300}, {Login: "bob", Comment: 950}}
	assert.Equal(t, int64(300), run.CommentsNeed(cfg, st, found).Since,
		"a stored command counts only while its comment, read now, still says it: back to the oldest")
	st.Runs[0].Status = model.RunCompleted
	assert.Equal(t, int64(900), run.CommentsNeed(cfg, st, found).Since, "a finished run's commands count no more")
	st.Runs[0].Status = model.RunWaiting
	st.Runs[0].Stages["approval"].Approvals = nil

	st.StateComment = ""
	assert.Equal(t, int64(0), run.CommentsNeed(cfg, st, state.Version{}).Since, "its comment is somewhere: read them all")
	assert.Equal(t, int64(900), run.CommentsNeed(cfg, st, found).Since)
	assert.Equal(t, int64(0), run.CommentsNeed(cfg, &model.State{Version: 1}, state.Version{}).Since, "nothing read yet")
}
