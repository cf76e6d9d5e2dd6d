package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// ownRun is af as the end of the workflow run the action dispatched for af's stage: the
// agent's workflow file, on the ref it is dispatched on, by workflow_dispatch, started by
// the action's identity (which it gives f when f names none).
func ownRun(cfg *lang.Config, f *model.Facts, af model.AgentFailure) *model.AgentFailure {
	if f.Viewer == "" {
		f.Viewer = "github-actions[bot]"
	}
	for _, p := range cfg.Pipelines {
		if st := core.StageOrBranch(p, af.Stage); st != nil && st.Type == lang.StageAgent {
			if ag := cfg.Agent(st.Agent); ag != nil {
				af.Path = ".github/workflows/" + ag.Workflow
				af.Branch = ag.Ref
				if af.Branch == "" {
					af.Branch = f.DefaultBranch
				}
			}
		}
	}
	af.Event, af.Actor, af.TriggeringActor = "workflow_dispatch", f.Viewer, f.Viewer
	return &af
}

// Only the workflow run the action dispatched fails the stage: a run of another file, on
// another branch, started by another event or by a person (a re-run too), or another
// run than the one GitHub said the dispatch started, is ignored and logged.
func TestAgentFailureOnlyFromTheAgentsOwnRun(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, WorkflowRun: 4242}}, f, t0)
	require.Equal(t, int64(4242), res.State.Runs[0].Stages["implement"].AgentRun)
	genuine := func() *model.AgentFailure {
		return ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: 1, Why: "concluded failure", RunID: 4242})
	}
	cases := []struct {
		name   string
		change func(*model.AgentFailure)
		want   string
	}{
		{"another workflow file", func(a *model.AgentFailure) { a.Path = ".github/workflows/copy.yml" }, `its workflow file is ".github/workflows/copy.yml", not the agent's ".github/workflows/agent-implement.yml"`},
		{"another branch", func(a *model.AgentFailure) { a.Branch = "mallory/agent" }, `it ran on "mallory/agent", not on "agents"`},
		{"another event", func(a *model.AgentFailure) { a.Event = "push" }, `it was started by "push", not by a workflow_dispatch`},
		{"another actor", func(a *model.AgentFailure) { a.Actor, a.TriggeringActor = "mallory", "mallory" }, `it was started by "mallory", not by the action (github-actions[bot])`},
		{"a re-run by a person", func(a *model.AgentFailure) { a.TriggeringActor = "mallory" }, `it was started by "mallory"`},
		{"a user named like the bot", func(a *model.AgentFailure) { a.Actor, a.TriggeringActor = "github-actions", "github-actions" }, `it was started by "github-actions", not by the action`},
		{"another run", func(a *model.AgentFailure) { a.RunID = 99 }, "the dispatch of this attempt started workflow run 4242, not this one"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			af := genuine()
			tc.change(af)
			out := Step(cfg, res.State, model.Input{Key: "wf", Event: "workflow_run.completed", AgentFailure: af}, f, t0.Add(time.Minute))
			assert.False(t, out.Changed, "a workflow run that is not the agent's changes nothing")
			assert.Empty(t, out.Effects)
			assert.Contains(t, joinLog(out.Log), "ignored: "+tc.want)
		})
	}
	out := Step(cfg, res.State, model.Input{Key: "wf", Event: "workflow_run.completed", AgentFailure: genuine()}, f, t0.Add(time.Minute))
	require.Len(t, out.Effects, 1, "the agent's own run fails the attempt: on_error retries")
	assert.Equal(t, 2, out.State.Runs[0].Stages["implement"].Attempt)
	assert.Zero(t, out.State.Runs[0].Stages["implement"].AgentRun, "the new attempt's run is not known yet")
}

// Without the run's id (GitHub returned none: a dispatch that did not ask for it, or
// whose outcome was lost), the other checks decide; an agent dispatched otherwise than
// as a workflow has no workflow run of its own.
func TestAgentFailureWithoutARecordedRunID(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := dispatched(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	af := ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: 1, RunID: 77})
	out := Step(cfg, res.State, model.Input{Key: "wf", AgentFailure: af}, f, t0.Add(time.Minute))
	assert.Equal(t, 2, out.State.Runs[0].Stages["implement"].Attempt)

	f.Viewer = ""
	out = Step(cfg, res.State, model.Input{Key: "wf", AgentFailure: af}, f, t0.Add(time.Minute))
	assert.False(t, out.Changed)
	assert.Contains(t, joinLog(out.Log), "the action's own identity is not known")

	cfg = agentConfig(t, lang.DispatchRepositoryDispatch)
	f = prFacts()
	res = atAnalyze(t, cfg, f)
	af = ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "analyze", Attempt: 1})
	af.Event, af.Path = "repository_dispatch", ".github/workflows/analyze.yml"
	out = Step(cfg, res.State, model.Input{Key: "wf", AgentFailure: af}, f, t0.Add(time.Minute))
	assert.False(t, out.Changed)
	assert.Contains(t, joinLog(out.Log), "agent analyzer is not dispatched as a workflow")
}
