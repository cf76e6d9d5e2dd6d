package state

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func testConfig() *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{
		{
			Name: "auto-merge", Description: "Merge reviewed, green PRs into main",
			Stages: []*lang.Stage{
				{ID: "ready", Type: lang.StageGate},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
			},
		},
		{
			Name: "label-sync",
			Stages: []*lang.Stage{
				{ID: "has-label", Type: lang.StageGate, OnFail: lang.TargetFail},
				{ID: "mark", Type: lang.StageAction, Action: lang.ActionAddLabel},
			},
		},
	}}
}

func waitingRun() *model.Run {
	return &model.Run{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
		Status: model.RunWaiting, Stage: "ready", StartedAt: t0, UpdatedAt: at(5),
		Stages: map[string]*model.StageRun{"ready": {
			Status: model.StageWaiting, Attempt: 1, EnteredAt: t0,
			Results: []model.GateResult{
				{Check: "human_approved", Status: model.GatePending, Message: "needs 1 approving review from someone with write access; has 0", Who: "a reviewer with write access"},
				{Check: "no_changes_requested", Status: model.GatePass, Message: "no changes requested"},
				{Check: "ci_status", Status: model.GateFail, Message: `check "test" failed`, Who: "CI on abc1234"},
				{Check: "label_present", Status: model.GateFail, Optional: true, Message: `needs label "automerge"`},
				{Check: "mergeable", Status: model.GateError, Message: "mergeability <unknown> | not computed yet", Who: "GitHub"},
			},
		}},
		History: []model.Transition{{At: t0, Actor: "dev", To: "ready", Why: "pull_request.opened"}},
	}
}

func retryingRun() *model.Run {
	return &model.Run{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
		Status: model.RunWaiting, Stage: "merge", StartedAt: t0, UpdatedAt: at(30),
		Stages: map[string]*model.StageRun{
			"ready": {Status: model.StagePassed, Attempt: 1, EnteredAt: t0},
			"merge": {Status: model.StageRetrying, Attempt: 1, Tries: 2, EnteredAt: at(20),
				Message: "merge refused: Pull Request is not mergeable; tried 2 times; trying again on the next event"},
		},
		History: []model.Transition{
			{At: t0, Actor: "dev", To: "ready", Why: "pull_request.opened"},
			{At: at(20), Actor: "alice", From: "ready", To: "merge", Why: "all conditions hold"},
		},
	}
}

func completedRun() *model.Run {
	r := retryingRun()
	r.Status = model.RunCompleted
	r.Stages["merge"] = &model.StageRun{Status: model.StageSucceeded, Attempt: 1, EnteredAt: at(20)}
	r.History = append(r.History, model.Transition{At: at(40), Actor: "github-actions[bot]", From: "merge", To: "complete", Why: "merged"})
	return r
}

func cancelledRun() *model.Run {
	r := waitingRun()
	r.Status = model.RunCancelled
	r.Message = "pull request closed"
	r.Stages["ready"].Status = model.StageCancelled
	r.History = append(r.History, model.Transition{At: at(90), Actor: "dev", From: "ready", To: engine.TargetCancelled, Why: "pull request closed"})
	return r
}

func labelRun() *model.Run {
	return &model.Run{
		ID: "label-sync/7/1", Pipeline: "label-sync", Subject: "acme/widgets#7",
		Status: model.RunFailed, Stage: "has-label", StartedAt: at(10), UpdatedAt: at(11),
		Message: `label "sync" missing`,
		Stages:  map[string]*model.StageRun{"has-label": {Status: model.StageFailed, Attempt: 1, EnteredAt: at(10)}},
		History: []model.Transition{
			{At: at(10), Actor: "dev", To: "has-label", Why: "pull_request.labeled"},
			{At: at(11), Actor: "dev", From: "has-label", To: "fail", Why: `label "sync" missing`},
		},
	}
}

func renamedRun() *model.Run {
	r := retryingRun()
	r.Pipeline = "automerge-old"
	r.ID = "automerge-old/7/1"
	return r
}

func state(runs ...*model.Run) *model.State {
	return &model.State{Version: 1, Subject: "acme/widgets#7", Seq: len(runs), Runs: runs}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		st   *model.State
	}{
		{name: "waiting_gate", st: state(waitingRun())},
		{name: "retrying_merge", st: state(retryingRun())},
		{name: "completed", st: state(completedRun())},
		{name: "cancelled", st: state(cancelledRun())},
		{name: "two_runs", st: state(waitingRun(), labelRun())},
		{name: "missing_pipeline", st: state(renamedRun())},
		{name: "no_runs", st: state()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(testConfig(), tt.st)
			assert.Equal(t, got, Render(testConfig(), tt.st), "deterministic")
			assert.NotContains(t, got, "<!--", "rendered text never holds a marker")
			checkGolden(t, filepath.Join("testdata", tt.name+".md"), got)
		})
	}
}

func TestRenderEscapesMarker(t *testing.T) {
	r := waitingRun()
	fake, err := Encode(&model.State{Version: 1, Subject: "evil#1"})
	require.NoError(t, err)
	r.Stages["ready"].Results[0].Message = fake
	r.History[0].Why = fake
	body, err := Body(testConfig(), state(r))
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(body, markerPrefix))
	st, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "acme/widgets#7", st.Subject)
}

func TestRenderNil(t *testing.T) {
	got := Render(nil, nil)
	assert.Contains(t, got, "No pipeline has run here yet.")
	got = Render(nil, state(waitingRun()))
	assert.Contains(t, got, "no longer in the config")
	assert.NotContains(t, got, "```mermaid")
}

// checkGolden compares got with the file at path, or rewrites it under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}

// A pipeline's display_name titles its runs in the status, with the pipeline's name beside
// it (what commands name); without one the name alone is the title.
func TestRenderDisplayName(t *testing.T) {
	cfg := testConfig()
	p := cfg.Pipeline(waitingRun().Pipeline)
	if !assert.NotNil(t, p) {
		return
	}
	plain := Render(cfg, state(waitingRun()))
	p.DisplayName = "Merge when green"
	got := Render(cfg, state(waitingRun()))
	assert.NotContains(t, plain, "Merge when green")
	assert.Contains(t, got, "**Merge when green** `"+p.Name+"` · ")
}

// The pipelines a subject enables or disables go through the comment and the state file,
// and the status says which.
func TestEnabledPipelinesRoundTripAndRender(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#7",
		Enabled: map[string]bool{"developer": true, "auto-task": true, "session-lifecycle": false}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "<sub>Pipelines enabled here: `auto-task`, `developer`; disabled here: `session-lifecycle`</sub>")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, st.Enabled, back.Enabled)

	file, err := EncodeFile(st)
	require.NoError(t, err)
	fromFile, err := DecodeFile(file, "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, st.Enabled, fromFile.Enabled)

	assert.NotContains(t, Render(testConfig(), &model.State{Version: 1, Subject: "acme/widgets#7"}), "enabled here")
}

func TestRenderFollowers(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#9", Followers: []model.Follower{
		{Issue: 4, Run: "feature/4/1"},
		{Issue: 5, Run: "x/5/1`<img src=x>@mallory"}, // not a run id: shown without it
		{Issue: 0, Run: "feature/0/1"},               // no issue: not shown
	}}
	out := Render(nil, st)
	assert.Contains(t, out, "Followed by run `feature/4/1` of #4: its state is on the issue.")
	assert.Contains(t, out, "Followed by a run of #5: its state is on the issue.")
	assert.NotContains(t, out, "mallory")
	assert.NotContains(t, out, "<img")
	assert.NotContains(t, out, "#0")
	assert.NotContains(t, out, "No pipeline has run here yet")
	assert.Equal(t, 2, strings.Count(out, "Followed by"))
}

// TestRenderFollowersOfAnotherRepository: a multi-PR run of another repository is shown as
// owner/name#N; a repository that is not owner/name is not shown at all.
func TestRenderFollowersOfAnotherRepository(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/web#30", Followers: []model.Follower{
		{Issue: 4, Run: "xr/4/1", Repo: "acme/widgets"},
		{Issue: 5, Run: "xr/5/1", Repo: "acme/x <img src=x>"},
	}}
	out := Render(nil, st)
	assert.Contains(t, out, "Followed by run `xr/4/1` of acme/widgets#4: its state is on the issue.")
	assert.NotContains(t, out, "<img")
	assert.Equal(t, 1, strings.Count(out, "Followed by"))
}

func outcomeConfig() *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{
		Name: "loop",
		Stages: []*lang.Stage{
			{ID: "implement", Type: lang.StageAgent, Agent: "coder", Timeout: 1},
			{ID: "analyze", Type: lang.StageAgent, Agent: "analyzer"},
			{ID: "low-risk", Type: lang.StageGate, OnFail: "maintainer"},
			{ID: "maintainer", Type: lang.StageHuman, WaitFor: lang.WaitApproval},
		},
	}}}
}

// The status says which way a stage went when its verdict looped back or its gate routed
// the run on purpose, and says a waiting agent's message once.
func TestRenderSaysWhatHappened(t *testing.T) {
	waiting := "agent coder dispatched (attempt 2); waiting for its report"
	run := &model.Run{ID: "loop/7/1", Pipeline: "loop", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "implement", StartedAt: t0,
		Stages: map[string]*model.StageRun{
			"implement": {Status: model.StageWaiting, Attempt: 2, EnteredAt: at(2), Message: waiting,
				Results:   []model.GateResult{{Check: "report", Status: model.GatePending, Message: waiting, Who: "agent coder"}},
				Deadlines: []model.Deadline{{Kind: model.DeadlineTimeout, At: at(30)}}},
			"analyze":  {Status: model.StageSucceeded, Attempt: 1, EnteredAt: at(1), Verdict: lang.VerdictRevise},
			"low-risk": {Status: model.StageFailed, Attempt: 1, EnteredAt: t0},
		},
		History: []model.Transition{
			{At: t0, From: "low-risk", To: "implement", Why: "gate failed"},
			{At: at(1), From: "implement", To: "analyze", Why: "agent coder reported complete"},
			{At: at(2), From: "analyze", To: "implement", Why: "agent analyzer reported revise"},
		}}
	got := Render(outcomeConfig(), state(run))
	assert.Contains(t, got, "| analyze | ↩️ revise → `implement` |")
	assert.Contains(t, got, "| low-risk | ↪️ on_fail → `implement` |")
	assert.Equal(t, 1, strings.Count(got, waiting), "the waiting message is said once, under Why it waits")
	assert.Contains(t, got, "<details><summary>Chart</summary>")

	// A verdict that ended the run is no loop: it shows as the stage's status.
	run.History = append(run.History, model.Transition{At: at(3), From: "analyze", To: lang.TargetFail})
	assert.Contains(t, Render(outcomeConfig(), state(run)), "| analyze | ✅ succeeded |")
}

func TestRenderParallelBranches(t *testing.T) {
	review := &lang.Stage{ID: "review", Type: lang.StageParallel, Join: lang.JoinAny, Branches: []*lang.Stage{
		{ID: "sec", Type: lang.StageAgent, Agent: "security-review"},
		{ID: "tag", Type: lang.StageAction, Action: lang.ActionAddLabel},
		{ID: "perf", Type: lang.StageAgent, Agent: "perf-review"},
	}}
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "p", Stages: []*lang.Stage{
		review, {ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
	}}}}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "review", StartedAt: t0,
		Stages: map[string]*model.StageRun{
			"review": {Status: model.StageWaiting, Attempt: 1, EnteredAt: at(1), Deadlines: []model.Deadline{
				{Kind: model.DeadlineBranch, At: at(31), Branch: "perf"}, {Kind: model.DeadlineTimeout, At: at(61)}}},
			"sec":  {Status: model.StageFailed, Attempt: 2, Verdict: lang.VerdictReject, Parent: "review", ParentAttempt: 1, EnteredAt: at(1)},
			"tag":  {Status: model.StageSucceeded, Attempt: 1, Parent: "review", ParentAttempt: 1, EnteredAt: at(1)},
			"perf": {Status: model.StageWaiting, Attempt: 1, Parent: "review", ParentAttempt: 1, EnteredAt: at(1)},
		}}
	out := Render(cfg, &model.State{Version: 1, Runs: []*model.Run{run}})
	assert.Contains(t, out, "| review | ⏳ waiting | 2026-01-05 09:01 UTC |\n"+
		"| ↳ sec | ❌ failed · verdict reject · agent security-review · attempt 2 | 2026-01-05 09:01 UTC |\n"+
		"| ↳ tag | ✅ succeeded · action add_label | 2026-01-05 09:01 UTC |\n"+
		"| ↳ perf | ⏳ waiting · agent perf-review | 2026-01-05 09:01 UTC |\n"+
		"| merge | · | |\n", out)
	assert.Contains(t, out, "- ⏰ branch `perf` times out 2026-01-05 09:31 UTC\n- ⏰ times out 2026-01-05 10:01 UTC\n")

	// Before the stage is entered, its branches are listed under it all the same.
	fresh := &model.Run{ID: "p/7/2", Pipeline: "p", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "x", StartedAt: t0.Add(time.Hour),
		Stages: map[string]*model.StageRun{}}
	out = Render(cfg, &model.State{Version: 1, Runs: []*model.Run{fresh}})
	assert.Contains(t, out, "| review | · | |\n| ↳ sec | · | |\n| ↳ tag | · | |\n| ↳ perf | · | |\n| merge | · | |\n", out)

	// Without its pipeline, a run's branches still show under their stage.
	out = Render(&lang.Config{}, &model.State{Version: 1, Runs: []*model.Run{run}})
	assert.Contains(t, out, "| review | ⏳ waiting | 2026-01-05 09:01 UTC |\n| ↳ perf | ⏳ waiting | 2026-01-05 09:01 UTC |\n| ↳ sec | ❌ failed · verdict reject · attempt 2 |", out)
}

// A pipeline branch names its sub-pipeline, and its child run is nested under it.
func TestRenderParallelPipelineBranchNestsItsChild(t *testing.T) {
	review := &lang.Stage{ID: "review", Type: lang.StageParallel, Join: lang.JoinAll, Branches: []*lang.Stage{
		{ID: "sec", Type: lang.StageAgent, Agent: "security-review"},
		{ID: "deep", Type: lang.StagePipeline, Pipeline: "inner"},
	}}
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{
		{Name: "p", Stages: []*lang.Stage{review, {ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR}}},
		{Name: "inner", Stages: []*lang.Stage{{ID: "check", Type: lang.StageAgent, Agent: "checker"}, {ID: "tests", Type: lang.StageAgent, Agent: "tester"}}},
	}}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "review", StartedAt: t0,
		Stages: map[string]*model.StageRun{
			"review": {Status: model.StageWaiting, Attempt: 1, EnteredAt: at(1)},
			"sec":    {Status: model.StageWaiting, Attempt: 1, Parent: "review", ParentAttempt: 1, EnteredAt: at(1)},
			"deep":   {Status: model.StageWaiting, Attempt: 1, Parent: "review", ParentAttempt: 1, EnteredAt: at(1), Child: "inner/7/1"},
		}}
	child := &model.Run{ID: "inner/7/1", Pipeline: "inner", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "check", StartedAt: at(1),
		Parent: "p/7/1/deep", ParentAttempt: 1, Depth: 1,
		Stages: map[string]*model.StageRun{"check": {Status: model.StageWaiting, Attempt: 1, EnteredAt: at(1)}}}
	out := Render(cfg, &model.State{Version: 1, Runs: []*model.Run{run, child}})
	assert.Contains(t, out, "| ↳ sec | ⏳ waiting · agent security-review | 2026-01-05 09:01 UTC |\n"+
		"| ↳ deep | ⏳ waiting · pipeline inner | 2026-01-05 09:01 UTC |\n"+
		"| \u00a0\u00a0\u00a0\u00a0↳ **inner** · run `inner/7/1` | ⏳ waiting at `check` | 2026-01-05 09:01 UTC |\n"+
		"| \u00a0\u00a0\u00a0\u00a0\u00a0\u00a0· check | ⏳ waiting | 2026-01-05 09:01 UTC |\n"+
		"| \u00a0\u00a0\u00a0\u00a0\u00a0\u00a0· tests | · | |\n"+
		"| merge | · | |\n", out)
	assert.NotContains(t, out, "\n**inner** · ", "the child has no section of its own")
}

func TestRenderStaleStageAndRoundTrip(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "merge",
		StartedAt: t0, Stages: map[string]*model.StageRun{
			"ready": {Status: model.StageStale, Attempt: 1, EnteredAt: t0, Stale: &model.Stale{At: at(5),
				Why: "invalidated on pull_request.synchronize (head bbbbbbb)", Verdict: lang.VerdictApprove, SHA: "aaaa"}},
			"merge": {Status: model.StageWaiting, Attempt: 1, EnteredAt: t0},
		}}}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "♻️ stale — invalidated on pull_request.synchronize (head bbbbbbb)")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	require.NotNil(t, back.Runs[0].Stages["ready"].Stale)
	assert.Equal(t, lang.VerdictApprove, back.Runs[0].Stages["ready"].Stale.Verdict)
	assert.True(t, back.Runs[0].Stages["ready"].Stale.At.Equal(at(5)))
}

func TestSharedAndRunVariablesRoundTripAndRender(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#7",
		Shared: map[string]any{"triaged_by": "triage:1", "title": "<!-- pipeline-action @org/team #12 `x`"},
		Runs: []*model.Run{{ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", Status: model.RunWaiting,
			Stage: "ready", StartedAt: t0, Variables: map[string]any{"tries": float64(2)},
			Stages: map[string]*model.StageRun{"ready": {Status: model.StageWaiting, Attempt: 1, EnteredAt: t0}}}}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "<sub>Variables: `tries` = `2`</sub>")
	assert.Contains(t, out, "<sub>Shared variables: `title` = ")
	assert.Contains(t, out, "`triaged_by` = `\"triage:1\"`")
	assert.NotContains(t, out, "<!-- pipeline-action @", "a value cannot forge a marker")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, st.Shared, back.Shared)
	assert.Equal(t, st.Runs[0].Variables, back.Runs[0].Variables)

	file, err := EncodeFile(st)
	require.NoError(t, err)
	fromFile, err := DecodeFile(file, "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, st.Shared, fromFile.Shared)
	assert.Equal(t, st.Runs[0].Variables, fromFile.Runs[0].Variables)

	// A state without them (written before they existed) decodes with none.
	old, err := DecodeFile(`{"version":1,"subject":"acme/widgets#7","seq":1,"runs":[]}`, "acme/widgets#7")
	require.NoError(t, err)
	assert.Nil(t, old.Shared)
}
