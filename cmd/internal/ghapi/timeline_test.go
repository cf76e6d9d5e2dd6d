package ghapi_test

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The timeline read with the facts says who added a label and who dismissed whose review
// (a human stage's `from` with wait_for: label or dismiss).
func TestTimelineActors(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	fake.LabelAs(repoName, 7, "ship-it", true, "alice")
	fake.Label(repoName, 7, "docs", true)
	fake.Review(repoName, 7, "carol", "CHANGES_REQUESTED", "no")
	fake.DismissReviewAs(repoName, 7, "carol", "bob")

	snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	var got []model.TimelineEvent
	for _, ev := range snap.Facts.PR.Timeline {
		got = append(got, model.TimelineEvent{Kind: ev.Kind, Label: ev.Label, Actor: ev.Actor})
	}
	assert.Contains(t, got, model.TimelineEvent{Kind: model.TimelineLabeled, Label: "ship-it", Actor: "alice"})
	assert.Contains(t, got, model.TimelineEvent{Kind: model.TimelineLabeled, Label: "docs", Actor: "dev"})
	assert.Contains(t, got, model.TimelineEvent{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "bob"})
}
