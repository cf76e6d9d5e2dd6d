package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The judges of TestProperty find what they are there for, on worlds made by hand.
func TestPropJudges(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	perms := map[string]string{"alice": "write", "bob": "write", "dan": "write", "carol": "read"}
	world := func(reviews []ghfake.ReviewRecord, checks []ghfake.CheckRecord, labels []string, comments ...ghfake.CommentView) *propWorld {
		run := &propRun{
			steps: []*propStep{{kind: "open_pr"}, {kind: "push"}, {kind: "review", body: "{pr: 7, user: alice, state: approved}"}},
			facts: []propFact{{at: at(1), head: "h1", base: "main", perms: perms, files: []string{"src/app.go"}},
				{at: at(2), head: "h2", base: "main", perms: perms, files: []string{"src/app.go"}},
				{at: at(3), head: "h2", base: "main", merged: true, perms: perms, files: []string{"src/app.go"}}},
		}
		return &propWorld{run: run, at: 2, headAt: at(2), labels: labels, comments: comments,
			m: ghfake.MergeRecord{Number: propPR, Author: propAuthor, HeadSHA: "h2", At: at(3), Reviews: reviews, Checks: checks}}
	}
	green := []ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "success"}}
	red := []ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "failure"}}
	alice := ghfake.ReviewRecord{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h2"}
	dan := ghfake.ReviewRecord{User: "dan", Permission: "write", State: "APPROVED", CommitID: "h2"}

	ci := propCheck{kind: "ci_status"}
	assert.Empty(t, world(nil, green, nil).checkHolds(ci))
	assert.Contains(t, world(nil, red, nil).checkHolds(ci), "not green")
	assert.Contains(t, world(nil, nil, nil).checkHolds(ci), "not green")

	one, two, from := propCheck{kind: "human_approved", count: 1}, propCheck{kind: "human_approved", count: 2}, propCheck{kind: "human_approved", count: 1, from: true}
	assert.Empty(t, world([]ghfake.ReviewRecord{alice}, nil, nil).checkHolds(one))
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{alice}, nil, nil).checkHolds(two))
	assert.Empty(t, world([]ghfake.ReviewRecord{alice, dan}, nil, nil).checkHolds(two))
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{dan}, nil, nil).checkHolds(from), "dan is no maintainer")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h1"}}, nil, nil).checkHolds(one), "an older head")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: "alice", Permission: "read", State: "APPROVED", CommitID: "h2"}}, nil, nil).checkHolds(one), "alice lost write")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: propAuthor, Permission: "write", State: "APPROVED", CommitID: "h2"}}, nil, nil).checkHolds(one), "the author")
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{alice, {User: "alice", Permission: "write", State: "CHANGES_REQUESTED", CommitID: "h2"}}, nil, nil).checkHolds(one))
	assert.Empty(t, world([]ghfake.ReviewRecord{alice, {User: "alice", Permission: "write", State: "COMMENTED", CommitID: "h2"}}, nil, nil).checkHolds(one))

	ncr := propCheck{kind: "no_changes_requested"}
	assert.Empty(t, world([]ghfake.ReviewRecord{alice}, nil, nil).checkHolds(ncr))
	assert.NotEmpty(t, world([]ghfake.ReviewRecord{{User: "bob", Permission: "write", State: "CHANGES_REQUESTED", CommitID: "h1"}}, nil, nil).checkHolds(ncr))

	label := propCheck{kind: "label_present", label: "ready"}
	assert.Empty(t, world(nil, nil, []string{"Ready"}).checkHolds(label))
	assert.NotEmpty(t, world(nil, nil, []string{"ship"}).checkHolds(label))

	// A human stage: a review of the merged head, or a /pipeline approve since it was pushed,
	// unedited, by someone who counts.
	assert.True(t, world([]ghfake.ReviewRecord{alice}, nil, nil).humanHolds(false, false))
	assert.False(t, world([]ghfake.ReviewRecord{dan}, nil, nil).humanHolds(true, false))
	approve := ghfake.CommentView{Author: "bob", Body: "/pipeline approve", CreatedAt: at(2)}
	assert.True(t, world(nil, nil, nil, approve).humanHolds(true, false))
	early := approve
	early.CreatedAt = at(1)
	assert.False(t, world(nil, nil, nil, early).humanHolds(false, false), "before the merged head")
	byReader := approve
	byReader.Author = "carol"
	assert.False(t, world(nil, nil, nil, byReader).humanHolds(false, false))
	withdrawn := approve
	withdrawn.Body, withdrawn.Edits, withdrawn.Editor = "not yet", []string{"/pipeline approve"}, "bob"
	assert.False(t, world(nil, nil, nil, withdrawn).humanHolds(false, false))
	assert.True(t, world(nil, nil, nil, withdrawn).humanHolds(false, true), "counted only when an edited text counts")
	forged := approve
	forged.Body, forged.Edits, forged.Editor = "/pipeline approve", []string{"lgtm"}, propAuthor
	assert.False(t, world(nil, nil, nil, forged).humanHolds(false, false), "edited by someone else")

	assert.True(t, world(nil, nil, []string{"security"}).condHolds(&propCond{label: "security"}))
	assert.False(t, world(nil, nil, nil).condHolds(&propCond{path: "security/**"}))
}
