package actionplan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// planNotifyAgent plans the dispatch that hands text to ag.
func planNotifyAgent(e *core.Eval, run *model.Run, eff model.Effect, ag *lang.Agent, text string, env lang.Env) core.PlannedAction {
	if slices.Contains(run.Applied, eff.Key) || slices.Contains(e.Facts.PR.Posted, eff.Key) {
		return core.PlannedAction{Done: "agent " + ag.Name + " notified"}
	}
	eff.Kind, eff.Agent, eff.Dispatch = model.EffectDispatch, ag.Name, ag.Dispatch
	switch ag.Dispatch {
	case lang.DispatchWorkflow, lang.DispatchRepositoryDispatch:
		ctx := map[string]any{}
		for k, v := range run.Context {
			ctx[k] = v
		}
		ctx["message"] = text
		b, err := json.Marshal(ctx)
		if err != nil {
			return core.PlannedAction{Err: fmt.Sprintf("notifying agent %s: the context does not encode as JSON: %v", ag.Name, err)}
		}
		eff.Inputs = map[string]string{
			"run": run.ID, "stage": run.Stage, "attempt": "0", "subject": e.Subject(),
			"action": model.ActionNotifyAgent, "context": string(b),
		}
		eff.Workflow, eff.Ref, eff.EventType = ag.Workflow, ag.Ref, ag.EventType
		if ag.Dispatch == lang.DispatchWorkflow && eff.Ref == "" {
			eff.Ref = e.Facts.DefaultBranch
		}
	case lang.DispatchComment:
		body := ag.Body
		if strings.Contains(body, "{{") {
			t, cerr := lang.CompileTemplate(body, ag.Pos)
			if cerr != nil {
				return core.PlannedAction{Err: fmt.Sprintf("notifying agent %s: its body: %s", ag.Name, cerr.Message)}
			}
			out, err := render.Text(t, env)
			if err != nil {
				return core.PlannedAction{Err: fmt.Sprintf("notifying agent %s: %v", ag.Name, err)}
			}
			body = out
		}
		eff.Body = strings.TrimSpace(body + "\n\n" + text)
	case lang.DispatchLabel:
		if e.Facts.PR.HasLabel(ag.Label) {
			why := fmt.Sprintf("agent %s not notified: its label %q is on the pull request already, and adding it again wakes no one", ag.Name, ag.Label)
			e.Logf("run %s: %s: %s", run.ID, eff.Key, why)
			return core.PlannedAction{Done: why}
		}
		eff.Labels = []string{ag.Label}
	case lang.DispatchAssign:
		eff.Assignees = []string{ag.Assignee}
	default:
		return core.PlannedAction{Err: fmt.Sprintf("notifying agent %s: unknown dispatch kind %q", ag.Name, ag.Dispatch)}
	}
	return core.PlannedAction{Eff: eff}
}
