package engine

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func notifyAgentConfig(ag *lang.Agent) *lang.Config {
	ag.Name = "feat-dev"
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionNotify, Config: lang.ActionConfig{
		Target: mustTemplate("feat-dev"), Message: mustTemplate("Please rebase #{{ context.pr_number }} onto {{ trigger.pull_request.base.ref }}")}})
	cfg.Agents = []*lang.Agent{ag}
	return cfg
}

// Notifying an agent goes through its dispatch kind, with the message.
func TestNotifyAgentByDispatchKind(t *testing.T) {
	t.Run("workflow", func(t *testing.T) {
		cfg := notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchWorkflow, Workflow: "agent.yml"})
		res := stepOnce(t, cfg, prFacts())
		require.Len(t, res.Effects, 1)
		eff := res.Effects[0]
		assert.Equal(t, model.EffectDispatch, eff.Kind)
		assert.Equal(t, lang.DispatchWorkflow, eff.Dispatch)
		assert.Equal(t, "feat-dev", eff.Agent)
		assert.Equal(t, "p/7/1/act/1/notify", eff.Key)
		assert.True(t, eff.WriteAhead, "a workflow dispatch is saved as an intent first")
		require.Len(t, res.State.Runs[0].Intents, 1)
		assert.Equal(t, "agent.yml", eff.Workflow)
		assert.Equal(t, "main", eff.Ref, "the default branch")
		assert.Equal(t, "notify", eff.Inputs["action"])
		assert.Equal(t, "0", eff.Inputs["attempt"], "no attempt waits for a report from it")
		assert.Equal(t, "act", eff.Inputs["stage"])
		var ctx map[string]any
		require.NoError(t, json.Unmarshal([]byte(eff.Inputs["context"]), &ctx))
		assert.Equal(t, map[string]any{"pr_number": 7.0, "message": "Please rebase #7 onto main"}, ctx)
		// Performed: the stage completes.
		res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: eff.Key}}, prFacts(), t0)
		assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	})
	t.Run("repository_dispatch", func(t *testing.T) {
		cfg := notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchRepositoryDispatch, EventType: "wake"})
		res := stepOnce(t, cfg, prFacts())
		require.Len(t, res.Effects, 1)
		assert.Equal(t, "wake", res.Effects[0].EventType)
		assert.Equal(t, "notify", res.Effects[0].Inputs["action"])
		assert.True(t, res.Effects[0].WriteAhead)
	})
	t.Run("comment", func(t *testing.T) {
		cfg := notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchComment, Body: "@claude on #{{ subject.number }}"})
		res := stepOnce(t, cfg, prFacts())
		require.Len(t, res.Effects, 1)
		eff := res.Effects[0]
		assert.Equal(t, model.EffectDispatch, eff.Kind)
		assert.Equal(t, "@claude on #7\n\nPlease rebase #7 onto main", eff.Body)
		assert.True(t, eff.WriteAhead)
		// Its marker on the PR shows it posted, though the outcome was lost.
		f := prFacts()
		f.PR.Posted = []string{eff.Key}
		res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Hour))
		assert.Empty(t, res.Effects)
		assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	})
	t.Run("label", func(t *testing.T) {
		cfg := notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchLabel, Label: "agent:go"})
		res := stepOnce(t, cfg, prFacts())
		require.Len(t, res.Effects, 1)
		assert.Equal(t, []string{"agent:go"}, res.Effects[0].Labels)
		assert.False(t, res.Effects[0].WriteAhead, "adding a label is idempotent")
		// The label already there wakes no one: the stage says so and moves on.
		res = stepOnce(t, cfg, prFacts("agent:go"))
		assert.Empty(t, res.Effects)
		assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
		assert.Contains(t, joinLog(res.Log), "adding it again wakes no one")
	})
	t.Run("assign", func(t *testing.T) {
		cfg := notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchAssign, Assignee: "copilot"})
		res := stepOnce(t, cfg, prFacts())
		require.Len(t, res.Effects, 1)
		assert.Equal(t, []string{"copilot"}, res.Effects[0].Assignees)
	})
}

// A workflow dispatch whose outcome stayed unknown is never sent twice: once the invocation
// that asked for it has surely ended, it is taken as sent.
func TestNotifyAgentUnknownOutcomeNotSentTwice(t *testing.T) {
	cfg := notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchWorkflow, Workflow: "agent.yml"})
	res := stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	in := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts(), t0.Add(time.Minute))
	assert.Empty(t, in.Effects, "in flight")
	later := Step(cfg, in.State, model.Input{Key: "k3", Event: "status"}, prFacts(), t0.Add(3*time.Hour))
	assert.Empty(t, later.Effects)
	assert.Equal(t, model.RunCompleted, later.State.Runs[0].Status)
	assert.Contains(t, joinLog(later.Log), "not sent twice")

	// A comment whose marker is not there was not posted: it is asked for again.
	cfg = notifyAgentConfig(&lang.Agent{Dispatch: lang.DispatchComment, Body: "@claude"})
	res = stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	later = Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, prFacts(), t0.Add(3*time.Hour))
	require.Len(t, later.Effects, 1)
	assert.Equal(t, res.Effects[0].Key, later.Effects[0].Key)
}

// A rule's notification of an agent (here a verdict rule's) is a dispatch too, once.
func TestNotifyAgentFromRule(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	cfg.Agents = append(cfg.Agents, &lang.Agent{Name: "helper", Dispatch: lang.DispatchRepositoryDispatch, EventType: "help"})
	cfg.Pipelines[0].Stages[1].Verdicts[lang.VerdictRevise].Notify = &lang.Notify{Target: agentTemplate(t, "helper"), Message: agentTemplate(t, "{{ outputs.feedback }}")}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictRevise, map[string]any{"feedback": "split it"}), f, t0)
	var notes []model.Effect
	for _, eff := range res.Effects {
		if eff.Agent == "helper" {
			notes = append(notes, eff)
		}
	}
	require.Len(t, notes, 1)
	assert.Equal(t, "help", notes[0].EventType)
	assert.True(t, notes[0].WriteAhead)
	assert.Contains(t, notes[0].Inputs["context"], `"message":"split it"`)
	assert.Contains(t, res.State.Runs[0].Applied, notes[0].Key)
}
