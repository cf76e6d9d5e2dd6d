package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// An agent that acts as a machine user (carol, a plain account with write access, is the
// login of agent reviewer) is not a person at a human stage: neither its approving review
// nor its `/pipeline approve` counts, and the command is refused.
func TestAgentLoginCountsAsNoPerson(t *testing.T) {
	cfg := humanConfig(t, 1)
	cfg.Pipelines[0].Stages[0].From = ""
	cfg.Agents = []*lang.Agent{{Name: "reviewer", Dispatch: lang.DispatchLabel, Label: "review", Login: "carol"}}
	f := humanFacts()
	res := settleAll(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)

	f.PR.Comments = []model.IssueComment{command(101, "Carol", "/pipeline approve")}
	f.PR.Comments[0].CreatedAt = t0.Add(time.Minute)
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created", Actor: "Carol", CommentID: 101}, f, t0.Add(time.Minute))
	assert.Empty(t, res.State.Runs[0].Stages["approval"].Approvals)
	var replies []string
	for _, e := range res.Effects {
		if e.Kind == model.EffectComment {
			replies = append(replies, e.Body)
		}
	}
	assert.Contains(t, replies, "@Carol `/pipeline approve` refused: commands are taken from people, and @Carol is the login of an agent. Nothing was changed.")
	res = settleAll(t, cfg, res, f, t0.Add(time.Minute))

	f.PR.Reviews = []model.Review{{Author: "carol", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA, CanPush: true, SubmittedAt: t0.Add(2 * time.Minute)}}
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request_review.submitted", Actor: "carol"}, f, t0.Add(2*time.Minute))
	require.Equal(t, "approval", res.State.Runs[0].Stage, "an agent's approval is not a person's")
	assert.Contains(t, res.State.Runs[0].Stages["approval"].Results[0].Message, "carol is an agent, not a person")

	f.PR.Reviews = append(f.PR.Reviews, model.Review{Author: "alice", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA, CanPush: true, SubmittedAt: t0.Add(3 * time.Minute)})
	res = Step(cfg, res.State, model.Input{Key: "k4", Event: "pull_request_review.submitted", Actor: "alice"}, f, t0.Add(3*time.Minute))
	assert.Equal(t, "merge", res.State.Runs[0].Stage)
}

// A `/pipeline approve` counts at the merge only while its comment, read now, is still its
// author's command: deleted since, it no longer counts, and the guard sends the run back.
func TestDeletedApproveCommandNoLongerCounts(t *testing.T) {
	cfg := humanConfig(t, 1)
	p := cfg.Pipelines[0]
	p.Stages[0].OnComplete = "ready"
	p.Stages = []*lang.Stage{p.Stages[0],
		{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
		p.Stages[1]}
	f := humanFacts()
	res := settleAll(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	f.PR.Comments = []model.IssueComment{command(101, "alice", "/pipeline approve")}
	f.PR.Comments[0].CreatedAt = t0.Add(time.Minute)
	res = settleAll(t, cfg, Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created", Actor: "alice", CommentID: 101}, f, t0.Add(time.Minute)), f, t0.Add(time.Minute))
	require.Equal(t, "ready", res.State.Runs[0].Stage)

	f.PR.Comments = nil // alice deleted it
	f.PR.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, f, t0.Add(2*time.Minute))
	for _, e := range res.Effects {
		assert.NotEqual(t, model.EffectMerge, e.Kind, "no merge on a deleted approval")
	}
	run := res.State.Runs[0]
	assert.Equal(t, "approval", run.Stage)
	assert.Contains(t, run.History[len(run.History)-1].Why, "alice's /pipeline approve was deleted (comment 101 is not among the comments read)")
}
