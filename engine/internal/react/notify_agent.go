package react

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/lang"
)

// Notifying an agent (`notify: <agent>` in an action, a rule, on_timeout, on_events or a
// list) goes through the agent's own dispatch kind, as one dispatch effect:
//
//   - workflow / repository_dispatch: the inputs of a stage dispatch (DispatchInputs) with
//     action "notify", attempt "0" (no stage attempt waits for a report from it; a report
//     naming attempt 0 is refused) and the run's context with "message" added;
//   - comment: a comment of the agent's body (its mention) followed by the message;
//   - label: the agent's label is added (one already on the pull request wakes no one: the
//     notification is then logged as not sent);
//   - assign: the agent's assignee is assigned.
//
// Like any notification it is asked for at most once: its caller records it (Run.Applied,
// or an intent of the action stage) before it is performed.

// NotifyAgentUnknown settles the intent of an action stage's notification of an agent whose
// outcome stayed unknown. A comment is known from its marker, a workflow dispatch from the
// workflow's runs (Facts.Dispatches): one certainly not sent gives false, which lets it be
// asked again. Otherwise nothing tells (a repository_dispatch leaves nothing to read), so
// it is taken as sent — never sent twice — and the stage moves on, saying so.
func NotifyAgentUnknown(k Kernel, run *model.Run, stage *lang.Stage, it model.Intent) bool {
	w := k.World()
	ag := notifiedAgentOf(k, run, stage)
	if ag != nil && ag.Dispatch == lang.DispatchComment {
		return false
	}
	if tr, ok := w.Facts.Dispatches[it.Key]; ok && tr.Err == "" && !tr.Seen && !tr.Unsure {
		return false // GitHub shows it certainly not sent
	}
	name := "an agent"
	if ag != nil {
		name = "agent " + ag.Name
	}
	run.Intents = model.DropIntent(run.Intents, it.Key)
	run.Applied = model.AppendOnce(run.Applied, it.Key)
	why := fmt.Sprintf("whether the notification of %s asked for at %s reached GitHub is not known; it is not sent twice", name, it.At.UTC().Format("2006-01-02 15:04 UTC"))
	k.Logf("run %s: %s: %s", run.ID, stage.ID, why)
	k.Leave(run, stage, model.StageSucceeded, stage.OnSuccess, why)
	return true
}

// notifiedAgentOf returns the agent a notify action stage of run names, or nil.
func notifiedAgentOf(k Kernel, run *model.Run, stage *lang.Stage) *lang.Agent {
	cfg := k.World().Cfg
	p := cfg.PipelineFor(run)
	if stage.Action != lang.ActionNotify || stage.Config.Target == nil || p == nil {
		return nil
	}
	to, err := render.Strict(stage.Config.Target, k.TemplateEnv(p, run))
	if err != nil {
		return nil
	}
	return NotifiedAgent(cfg, to)
}

// NotifiedAgent returns the agent the rendered notification target names, or nil.
func NotifiedAgent(cfg *lang.Config, target string) *lang.Agent {
	return cfg.Agent(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(target), "@")))
}
