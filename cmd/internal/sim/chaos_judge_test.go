package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
)

// The judges of TestChaos find the broken promises they are there for.
func TestChaosJudges(t *testing.T) {
	green := []ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "success"}}
	ok := ghfake.ReviewRecord{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h2"}
	merge := func(checks []ghfake.CheckRecord, reviews ...ghfake.ReviewRecord) ghfake.MergeRecord {
		return ghfake.MergeRecord{Number: chaosPR, Author: "dev", HeadSHA: "h2", Reviews: reviews, Checks: checks}
	}
	assert.Empty(t, approvedAndGreen(merge(green, ok)))
	assert.Contains(t, approvedAndGreen(merge(green, ghfake.ReviewRecord{User: "carol", Permission: "read", State: "APPROVED", CommitID: "h2"})), "no write approval")
	assert.Contains(t, approvedAndGreen(merge(green, ghfake.ReviewRecord{User: "alice", Permission: "write", State: "APPROVED", CommitID: "h1"})), "no write approval")
	assert.Contains(t, approvedAndGreen(merge(green, ghfake.ReviewRecord{User: "dev", Permission: "write", State: "APPROVED", CommitID: "h2"})), "no write approval")
	assert.Contains(t, approvedAndGreen(merge(green, ok, ghfake.ReviewRecord{User: "alice", Permission: "write", State: "CHANGES_REQUESTED", CommitID: "h2"})), "no write approval")
	assert.Empty(t, approvedAndGreen(merge(green, ok, ghfake.ReviewRecord{User: "alice", Permission: "write", State: "COMMENTED", CommitID: "h2"})))
	assert.Contains(t, approvedAndGreen(merge(nil, ok)), "CI was not green")
	assert.Contains(t, approvedAndGreen(merge([]ghfake.CheckRecord{{Name: "test", Status: "completed", Conclusion: "failure"}}, ok)), "CI was not green")

	esc := map[string]engine.RunStatus{chaosRunID: engine.RunEscalated}
	waiting := map[string]engine.RunStatus{chaosRunID: engine.RunWaiting}
	ping := &chaosStep{kind: "comment", body: `{pr: 7, user: bob, body: "ping"}`, delivers: true}
	retry := &chaosStep{kind: "comment", body: `{pr: 7, user: alice, body: "/pipeline retry"}`, delivers: true, command: true}
	lost := &chaosStep{kind: "comment", body: `{pr: 7, user: alice, body: "/pipeline retry", deliver: false}`, delivers: true, command: true}
	judgeEsc := func(steps []*chaosStep, snaps ...map[string]engine.RunStatus) []chaosFailure {
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
