package agentreview

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func TestFindTakesTheFirstReviewOfTheAttempt(t *testing.T) {
	reviews := []core.Review{
		{Author: "bot", State: core.ReviewApproved, CommitSHA: "h", SubmittedAt: t0}, // not after the entry
		{Author: "bots", State: core.ReviewApproved, CommitSHA: "h", SubmittedAt: t0.Add(time.Second)},
		{Author: "BOT", State: core.ReviewCommented, CommitSHA: "h", SubmittedAt: t0.Add(2 * time.Second)},
		{Author: "bot", State: core.ReviewApproved, CommitSHA: "h", SubmittedAt: t0.Add(3 * time.Second)},
	}
	r, ok := Find(reviews, "bot", "h", t0)
	require.True(t, ok)
	assert.Equal(t, core.ReviewCommented, r.State)
	_, ok = Find(reviews, "bot", "other", t0)
	assert.False(t, ok, "another head")
	_, ok = Find(reviews, "", "h", t0)
	assert.False(t, ok, "an agent without a login has no reviews")
	_, ok = Find(reviews, "bot", "", t0)
	assert.False(t, ok, "no head, nothing reviewed")
}

func TestReportBoundsTheBody(t *testing.T) {
	body := strings.Repeat("é", MaxBody)
	r := Report("p/7/1", "review", 2, core.Review{State: core.ReviewChangesRequested, Body: body})
	assert.Equal(t, lang.VerdictReject, r.Verdict)
	assert.Equal(t, 2, r.Attempt)
	got := r.Outputs["review"].(string)
	assert.True(t, utf8.ValidString(got))
	assert.LessOrEqual(t, len(got), MaxBody+len(" …"))
	assert.Equal(t, got, r.Outputs["feedback"])
	_, has := Report("p/7/1", "review", 1, core.Review{State: core.ReviewApproved}).Outputs["feedback"]
	assert.False(t, has, "only changes requested is feedback")
}
