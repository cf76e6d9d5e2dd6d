package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// A run escalated at a parallel stage (its timeout) and unblocked goes on with the same
// attempt: each branch still open gets its timeout again, counted from the unblock (the
// escalation dropped the stage's deadlines: it waited for a person, not for time).
func TestParallelUnblockRearmsTheOpenBranchesTimeouts(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	review := cfg.Pipelines[0].Stages[1]
	review.Timeout = time.Hour
	review.OnTimeout = &lang.Rule{Then: lang.TargetEscalate}
	review.Branches[0].Timeout = 3 * time.Hour // sec: longer than the stage's timeout
	f := prFacts()
	f.People.Permissions = map[string]string{"alice": "write"}
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(2*time.Hour))
	run := res.State.Runs[0]
	require.Equal(t, model.RunEscalated, run.Status)
	assert.True(t, run.NextDeadline().IsZero(), "an escalated run waits for no time")

	unblockAt := t0.Add(5 * time.Hour)
	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline unblock", CreatedAt: unblockAt}}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, unblockAt)
	run = res.State.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status, res.Log)
	assert.Equal(t, 1, run.Stages["review"].Attempt, "the same attempt goes on")
	assert.Equal(t, model.StageWaiting, run.Stages["sec-review"].Status)
	assert.Equal(t, unblockAt.Add(3*time.Hour), run.NextDeadline(), "sec's timeout, from the unblock")
	assert.Equal(t, []model.Deadline{{Kind: model.DeadlineBranch, At: unblockAt.Add(3 * time.Hour), Branch: "sec-review"}}, run.Stages["review"].Deadlines,
		"perf has no timeout; the stage's own timeout, which escalated it, is not armed again")

	// The timeout is acted on: sec fails, and join all with it.
	res = Step(cfg, res.State, model.Input{Key: "sweep2", Event: "sweep"}, f, unblockAt.Add(4*time.Hour))
	run = res.State.Runs[0]
	assert.Equal(t, model.StageFailed, run.Stages["sec-review"].Status)
	assert.Contains(t, run.Stages["sec-review"].Message, "timed out")
	assert.Equal(t, model.RunFailed, run.Status)
}

// A pipeline branch's child is cancelled when its parent escalates (it does not run while
// its parent waits for a person); unblocking starts the branch again, with a new child.
func TestParallelUnblockStartsThePipelineBranchesChildAgain(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAll)
	review := cfg.Pipelines[0].Stages[1]
	review.Timeout = time.Hour
	review.OnTimeout = &lang.Rule{Then: lang.TargetEscalate}
	review.Branches[1].Timeout = 2 * time.Hour
	f := prFacts()
	f.People.Permissions = map[string]string{"alice": "write"}
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(90*time.Minute))
	require.Equal(t, model.RunEscalated, runOf(res.State, "loop/7/1").Status)
	assert.Equal(t, model.RunCancelled, runOf(res.State, innerID).Status, "the child does not run while its parent is escalated")

	unblockAt := t0.Add(3 * time.Hour)
	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline unblock", CreatedAt: unblockAt}}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, unblockAt)
	run := runOf(res.State, "loop/7/1")
	require.Equal(t, "review", run.Stage)
	assert.Equal(t, model.StageWaiting, run.Stages["deep"].Status, res.Log)
	assert.Equal(t, 2, run.Stages["deep"].Attempt)
	assert.Equal(t, "inner/7/2", run.Stages["deep"].Child)
	child := runOf(res.State, "inner/7/2")
	require.NotNil(t, child)
	assert.Equal(t, 2, child.ParentAttempt)
	assert.Contains(t, effectKeys(res), "inner/7/2/check/1/dispatch")
	assert.Equal(t, unblockAt.Add(2*time.Hour), run.NextDeadline())

	// The new child completes; sec approves: the join is met.
	res = dispatched(t, cfg, res, f, unblockAt)
	res = Step(cfg, res.State, reportOn(res.State, "inner/7/2", "check", 1, lang.VerdictApprove, nil), f, unblockAt.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, unblockAt.Add(2*time.Minute))
	run = runOf(res.State, "loop/7/1")
	assert.Equal(t, "done", run.Stage, res.Log)
	assert.Equal(t, model.StageSucceeded, run.Stages["deep"].Status)
}
