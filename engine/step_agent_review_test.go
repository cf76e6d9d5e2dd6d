package engine

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// reviewAgentConfig is one review stage of an agent dispatched by kind, whose login is
// login ("" leaves it to the assignee): approve goes on to a gate on label "ok",
// reject back to the stage, once.
func reviewAgentConfig(kind, login string) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "reviewer", Dispatch: kind, Workflow: "agent.yml", Label: "review-me", Assignee: "copilot", Login: login}},
		Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"},
			Stages: []*lang.Stage{
				{ID: "review", Type: lang.StageAgent, Agent: "reviewer", AgentAction: "review", OnComplete: "done",
					Verdicts: map[string]*lang.Rule{
						lang.VerdictApprove: {Goto: "done"},
						lang.VerdictReject:  {Goto: "review", MaxIterations: 1, Then: lang.TargetFail},
					}},
				{ID: "done", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			}}}}
}

// waitingForReview starts cfg's run at t0 and settles its dispatch.
func waitingForReview(t *testing.T, cfg *lang.Config, f *model.Facts) *model.State {
	t.Helper()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	require.Equal(t, model.StageWaiting, res.State.Runs[0].Stages["review"].Status)
	return res.State
}

func TestAgentReviewOfOthersOrElsewhereIsNotTheVerdict(t *testing.T) {
	cfg := reviewAgentConfig(lang.DispatchAssign, "")
	f := prFacts()
	st := waitingForReview(t, cfg, f)
	f.PR.Reviews = []model.Review{
		{Author: "alice", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(time.Minute)},
		{Author: "copilot", State: model.ReviewApproved, CommitSHA: "bbbbbbbbbb", SubmittedAt: t0.Add(time.Minute)},
		{Author: "copilot", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", SubmittedAt: t0},
		{Author: "copilot", State: model.ReviewDismissed, CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(time.Minute)},
		{Author: "copilot", State: model.ReviewPending, CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(time.Minute)},
	}
	res := Step(cfg, st, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage)
	assert.Equal(t, model.StageWaiting, run.Stages["review"].Status)
	assert.Empty(t, run.Stages["review"].Verdict)
}

func TestAgentReviewIsTheVerdict(t *testing.T) {
	cases := []struct {
		state, verdict, stage string
		status                model.StageStatus
		outputs               map[string]any
	}{
		{model.ReviewApproved, lang.VerdictApprove, "done", model.StageSucceeded, map[string]any{"review": "fine"}},
		{model.ReviewCommented, lang.VerdictComplete, "done", model.StageSucceeded, map[string]any{"review": "fine"}},
		{model.ReviewChangesRequested, lang.VerdictReject, "review", model.StageWaiting, map[string]any{"review": "fine", "feedback": "fine"}},
	}
	for _, c := range cases {
		t.Run(c.state, func(t *testing.T) {
			cfg := reviewAgentConfig(lang.DispatchLabel, "Review-Agent[bot]")
			f := prFacts()
			st := waitingForReview(t, cfg, f)
			f.PR.Reviews = []model.Review{{Author: "review-agent[bot]", State: c.state, Body: " fine ", CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(time.Minute), IsBot: true}}
			res := Step(cfg, st, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, t0.Add(time.Hour))
			run := res.State.Runs[0]
			assert.Equal(t, c.stage, run.Stage)
			sr := run.Stages["review"]
			if c.stage == "review" {
				assert.Equal(t, 2, sr.Attempt, "reject loops back: a new attempt")
				assert.Equal(t, c.outputs, sr.Outputs)
				require.Len(t, res.Effects, 1, "dispatched again")
			} else {
				assert.Equal(t, c.status, sr.Status)
				assert.Equal(t, c.verdict, sr.Verdict)
				assert.Equal(t, c.outputs, sr.Outputs)
				assert.Equal(t, "aaaaaaaaaa", sr.HeadSHA)
			}
			assert.Contains(t, run.History[len(run.History)-1].Why, "verdict "+c.verdict)

			// The same facts again change nothing: the review answered its attempt.
			before, err := json.Marshal(res.State)
			require.NoError(t, err)
			again := Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request_review.submitted"}, f, t0.Add(2*time.Hour))
			after, err := json.Marshal(again.State)
			require.NoError(t, err)
			assert.JSONEq(t, string(before), string(after))
		})
	}
}

func TestAgentReviewEntersTheLedgerAsTheAgents(t *testing.T) {
	cfg := reviewAgentConfig(lang.DispatchAssign, "")
	f := prFacts()
	st := waitingForReview(t, cfg, f)
	f.PR.Reviews = []model.Review{{Author: "Copilot", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(time.Minute)}}
	res := Step(cfg, st, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, t0.Add(time.Hour))
	run := res.State.Runs[0]
	e := &eval{&core.Eval{Cfg: cfg, Facts: f, Now: t0.Add(time.Hour)}}
	l := e.ledger(cfg.Pipelines[0], run)
	require.Len(t, l.Entries, 1)
	assert.Equal(t, model.LedgerEntry{Stage: "review", Who: model.LedgerAgent + "reviewer", Verdict: lang.VerdictApprove, SHA: "aaaaaaaaaa"}, l.Entries[0])
	require.Len(t, l.Stages, 1)
	assert.True(t, l.Stages[0].Met)
}

func TestAgentReviewFromAClockAheadAnswersOneAttempt(t *testing.T) {
	cfg := reviewAgentConfig(lang.DispatchAssign, "")
	f := prFacts()
	st := waitingForReview(t, cfg, f)
	now := t0.Add(time.Hour)
	// GitHub's clock is ahead of the runner's: the review is dated after the invocation.
	f.PR.Reviews = []model.Review{{Author: "copilot", State: model.ReviewChangesRequested, Body: "no", CommitSHA: "aaaaaaaaaa", SubmittedAt: now.Add(5 * time.Second)}}
	res := Step(cfg, st, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, now)
	res = dispatched(t, cfg, res, f, now)
	require.Equal(t, 2, res.State.Runs[0].Stages["review"].Attempt)
	later := Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, f, now.Add(time.Minute))
	run := later.State.Runs[0]
	assert.Equal(t, "review", run.Stage)
	assert.Equal(t, 2, run.Stages["review"].Attempt, "the review answered attempt 1 only")
	assert.Equal(t, model.RunWaiting, run.Status)
}

func TestAgentReviewIsABranchVerdict(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	cfg.Agents[1].Login, cfg.Agents[2].Login = "sec-bot[bot]", "perf-bot[bot]"
	f := prFacts()
	res := atReview(t, cfg, f)
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	f.PR.Reviews = []model.Review{
		{Author: "sec-bot[bot]", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(2 * time.Minute), IsBot: true},
	}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, t0.Add(3*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage, "the other branch has not answered")
	assert.Equal(t, model.StageSucceeded, run.Stages["sec-review"].Status)
	assert.Equal(t, model.StageWaiting, run.Stages["perf-review"].Status)

	f.PR.Reviews = append(f.PR.Reviews, model.Review{Author: "perf-bot[bot]", State: model.ReviewChangesRequested, Body: "slow", CommitSHA: "aaaaaaaaaa", SubmittedAt: t0.Add(4 * time.Minute), IsBot: true})
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request_review.submitted"}, f, t0.Add(5*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.StageFailed, run.Stages["perf-review"].Status)
	assert.Equal(t, "slow", run.Stages["perf-review"].Outputs["feedback"])
}
