package state

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

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
