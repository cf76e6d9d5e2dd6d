package sim

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The judges of TestChaos find the broken promises they are there for.
func TestChaosJudges(t *testing.T) {
	green := []ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "success"}}
	ok := ghfake.ReviewRecord{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h2"}
	merge := func(checks []ghfake.CheckRecord, reviews ...ghfake.ReviewRecord) ghfake.MergeRecord {
		return ghfake.MergeRecord{Number: chaosPR, Author: "dev", HeadSHA: "h2", Reviews: reviews, Checks: checks}
	}
	spec := &chaosGateSpec{groups: map[string][]string{"maintainers": {"alice"}}, conditions: []chaosCondition{
		{"check": "human_approved"}, {"check": "no_changes_requested"}, {"check": "ci_status", "expect": "success"}}}
	unheld := func(m ghfake.MergeRecord) string { return strings.Join(spec.unheld(m), "; ") }
	rv := func(user, perm, state, commit string) ghfake.ReviewRecord {
		return ghfake.ReviewRecord{User: user, Permission: perm, State: state, CommitID: commit}
	}
	assert.Empty(t, unheld(merge(green, ok)))
	assert.Contains(t, unheld(merge(green, rv("carol", "read", "APPROVED", "h2"))), "human_approved")
	assert.Contains(t, unheld(merge(green, rv("alice", "write", "APPROVED", "h1"))), "human_approved")
	assert.Contains(t, unheld(merge(green, rv("dev", "write", "APPROVED", "h2"))), "human_approved")
	assert.Contains(t, unheld(merge(green, ok, rv("alice", "write", "CHANGES_REQUESTED", "h2"))), "human_approved")
	assert.Empty(t, unheld(merge(green, ok, rv("alice", "write", "COMMENTED", "h2"))))
	assert.Contains(t, unheld(merge(nil, ok)), "CI was not green")
	assert.Contains(t, unheld(merge([]ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "failure"}}, ok)), "CI was not green")
	// A writer's request for changes stands until they approve or it is dismissed; on an
	// older head too; a comment after it does not lift it; a reader's does not count.
	assert.Contains(t, unheld(merge(green, ok, rv("bob", "write", "CHANGES_REQUESTED", "h1"))), "no_changes_requested")
	assert.Contains(t, unheld(merge(green, ok, rv("bob", "write", "CHANGES_REQUESTED", "h1"), rv("bob", "write", "COMMENTED", "h2"))), "changes requested by [bob]")
	assert.Empty(t, unheld(merge(green, ok, rv("bob", "write", "CHANGES_REQUESTED", "h1"), rv("bob", "write", "APPROVED", "h1"))))
	assert.Empty(t, unheld(merge(green, ok, rv("bob", "write", "DISMISSED", "h1"))))
	assert.Empty(t, unheld(merge(green, ok, rv("carol", "read", "CHANGES_REQUESTED", "h2"))))
	// count and from; a label; a check the judge does not know fails rather than passing.
	two := &chaosGateSpec{groups: spec.groups, conditions: []chaosCondition{{"check": "human_approved", "count": 2}}}
	assert.NotEmpty(t, two.unheld(merge(green, ok)))
	assert.Empty(t, two.unheld(merge(green, ok, rv("bob", "admin", "APPROVED", "h2"))))
	from := &chaosGateSpec{groups: spec.groups, conditions: []chaosCondition{{"check": "human_approved", "from": "maintainers"}}}
	assert.NotEmpty(t, from.unheld(merge(green, rv("bob", "write", "APPROVED", "h2"))))
	assert.Empty(t, from.unheld(merge(green, ok)))
	label := &chaosGateSpec{conditions: []chaosCondition{{"check": "label_present", "label": "Ready"}}}
	assert.NotEmpty(t, label.unheld(merge(green, ok)))
	labelled := merge(green, ok)
	labelled.Labels = []string{"ready"}
	assert.Empty(t, label.unheld(labelled))
	assert.Contains(t, strings.Join((&chaosGateSpec{conditions: []chaosCondition{{"check": "branch_up_to_date"}}}).unheld(merge(green, ok)), ""), "does not know")

	quiet := func(n int, snaps ...chaosSnap) int {
		var out int
		judgeQuietOf(snaps, n, func(string, string, ...any) { out++ })
		return out
	}
	assert.Zero(t, quiet(2, chaosSnap{dispatches: 1}, chaosSnap{dispatches: 2, merged: true}))
	assert.Equal(t, 1, quiet(3, chaosSnap{dispatches: 1}, chaosSnap{dispatches: 2, merged: true}, chaosSnap{dispatches: 3, merged: true}))
	assert.Equal(t, 1, quiet(2, chaosSnap{dispatches: 1, closed: true}, chaosSnap{dispatches: 1, closed: true}))

	esc := map[string]model.RunStatus{chaosRunID: model.RunEscalated}
	waiting := map[string]model.RunStatus{chaosRunID: model.RunWaiting}
	ping := &chaosStep{kind: "comment", body: `{pr: 7, user: bob, body: "ping"}`, delivers: true}
	retry := &chaosStep{kind: "comment", body: `{pr: 7, user: alice, body: "/pipeline retry"}`, delivers: true, command: true}
	lost := &chaosStep{kind: "comment", body: `{pr: 7, user: alice, body: "/pipeline retry", deliver: false}`, delivers: true, command: true}
	judgeEsc := func(steps []*chaosStep, snaps ...map[string]model.RunStatus) []chaosFailure {
		run := &chaosRun{steps: steps}
		for _, s := range snaps {
			run.snaps = append(run.snaps, chaosSnap{runs: s})
		}
		var out []chaosFailure
		judgeEscalations(run, func(inv, f string, args ...any) { out = append(out, chaosFailure{inv, f}) })
		return out
	}
	assert.Len(t, judgeEsc([]*chaosStep{ping, ping, ping}, waiting, esc, waiting), 1)
	assert.Empty(t, judgeEsc([]*chaosStep{ping, retry, ping}, waiting, esc, waiting))
	assert.Empty(t, judgeEsc([]*chaosStep{lost, ping, ping}, waiting, esc, waiting))
	assert.Empty(t, judgeEsc([]*chaosStep{ping, &chaosStep{kind: "redeliver", ref: retry}}, esc, esc, waiting))
}
