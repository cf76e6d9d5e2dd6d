package agentreview

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

// A verdict leaves the ledger once every review of the agent that could have given it, on
// the head it names and since its attempt began, is dismissed; a new approval stands again,
// and a dismissed review of another head or an older attempt takes nothing back.
func TestDismissedTakesTheVerdictBack(t *testing.T) {
	entered := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	sr := &model.StageRun{Verdict: lang.VerdictApprove, HeadSHA: "h1", EnteredAt: entered}
	pr := &model.PullRequest{Reviews: []model.Review{
		{Author: "review-agent", State: model.ReviewDismissed, CommitSHA: "h0", SubmittedAt: entered.Add(time.Minute)},
		{Author: "review-agent", State: model.ReviewDismissed, CommitSHA: "h1", SubmittedAt: entered.Add(-time.Minute)},
	}}
	assert.Empty(t, Dismissed(pr, "reviewer", "review-agent", sr), "another head, an older attempt")
	pr.Reviews = append(pr.Reviews, model.Review{Author: "Review-Agent", State: model.ReviewDismissed, CommitSHA: "h1", SubmittedAt: entered.Add(time.Minute)})
	pr.Timeline = []model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "review-agent", Actor: "alice", At: entered.Add(2 * time.Minute)}}
	assert.Equal(t, "agent reviewer's review (review-agent) was dismissed by alice", Dismissed(pr, "reviewer", "review-agent", sr))
	assert.Empty(t, Dismissed(pr, "reviewer", "", sr), "an agent with no login gives no review")
	pr.Reviews = append(pr.Reviews, model.Review{Author: "review-agent", State: model.ReviewApproved, CommitSHA: "h1", SubmittedAt: entered.Add(3 * time.Minute)})
	assert.Empty(t, Dismissed(pr, "reviewer", "review-agent", sr), "it approved that head again")
}
