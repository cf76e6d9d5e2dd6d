package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// A branch's verdict goes to the join, whatever rules the verdict has: a verdict with no
// rule fails the branch, not the run, and the branch says what the agent reported.
func TestBranchVerdictGoesToTheJoin(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf")
	f := prFacts()
	res := atReview(t, cfg, f)
	res = dispatched(t, cfg, res, f, t0.Add(2*time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictFollowup, nil), f, t0.Add(3*time.Minute))
	run := res.State.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status, "the join waits for perf")
	assert.Equal(t, "review", run.Stage)
	assert.Equal(t, model.StageFailed, run.Stages["sec-review"].Status)
	assert.Equal(t, "agent sec reported followup (attempt 1)", run.Stages["sec-review"].Message)
}

// A review from a clock ahead whose outputs do not match the schema is the stage's error:
// the retry it makes counts as entered when the review was given, so the same review does
// not answer (and fail) the retry too.
func TestAgentReviewErrorRetriesOnce(t *testing.T) {
	cfg := reviewAgentConfig(lang.DispatchAssign, "")
	s := cfg.Pipelines[0].Stages[0]
	s.OnError = &lang.ErrorPolicy{Retry: 1, Then: lang.TargetFail}
	s.OutputsSchema = lang.NewOutputsSchema(lang.Pos{}, func(v any) error {
		return fmt.Errorf("at /risk: missing")
	})
	f := prFacts()
	st := waitingForReview(t, cfg, f)
	now := t0.Add(time.Hour)
	f.PR.Reviews = []model.Review{{Author: "copilot", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", SubmittedAt: now.Add(5 * time.Second)}}
	res := Step(cfg, st, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, now)
	run := res.State.Runs[0]
	require.Equal(t, model.RunRunning, run.Status, "retried, not failed: %s", run.Message)
	sr := run.Stages["review"]
	assert.Equal(t, 2, sr.Attempt)
	assert.Equal(t, now.Add(5*time.Second), sr.EnteredAt)
	assert.Equal(t, 1, sr.Errors)
}
