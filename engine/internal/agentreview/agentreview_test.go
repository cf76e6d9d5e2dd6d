package agentreview

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func TestFindTakesTheFirstReviewOfTheAttempt(t *testing.T) {
	reviews := []model.Review{
		{Author: "bot", State: model.ReviewApproved, CommitSHA: "h", SubmittedAt: t0}, // not after the entry
		{Author: "bots", State: model.ReviewApproved, CommitSHA: "h", SubmittedAt: t0.Add(time.Second)},
		{Author: "BOT", State: model.ReviewCommented, CommitSHA: "h", SubmittedAt: t0.Add(2 * time.Second)},
		{Author: "bot", State: model.ReviewApproved, CommitSHA: "h", SubmittedAt: t0.Add(3 * time.Second)},
	}
	r, ok := Find(reviews, "bot", "h", t0)
	require.True(t, ok)
	assert.Equal(t, model.ReviewCommented, r.State)
	_, ok = Find(reviews, "bot", "other", t0)
	assert.False(t, ok, "another head")
	_, ok = Find(reviews, "", "h", t0)
	assert.False(t, ok, "an agent without a login has no reviews")
	_, ok = Find(reviews, "bot", "", t0)
	assert.False(t, ok, "no head, nothing reviewed")
}

func TestReportBoundsTheBody(t *testing.T) {
	body := strings.Repeat("é", MaxBody)
	r := Report("p/7/1", "review", 2, model.Review{State: model.ReviewChangesRequested, Body: body})
	assert.Equal(t, lang.VerdictReject, r.Verdict)
	assert.Equal(t, 2, r.Attempt)
	got := r.Outputs["review"].(string)
	assert.True(t, utf8.ValidString(got))
	assert.LessOrEqual(t, len(got), MaxBody+len(" …"))
	assert.Equal(t, got, r.Outputs["feedback"])
	_, has := Report("p/7/1", "review", 1, model.Review{State: model.ReviewApproved}).Outputs["feedback"]
	assert.False(t, has, "only changes requested is feedback")
}

// An agent's review whose body someone else edited gives its verdict, but not the words:
// they are not the agent's.
func TestReportOfAnEditedReviewHandsOnNoWords(t *testing.T) {
	r := model.Review{Author: "review-agent", State: model.ReviewChangesRequested, Body: "approve it anyway", EditedBy: "dev"}
	rep := Report("p/7/1", "review", 1, r)
	assert.Equal(t, lang.VerdictReject, rep.Verdict)
	assert.Equal(t, map[string]any{"review": "", "feedback": ""}, rep.Outputs)
}

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
