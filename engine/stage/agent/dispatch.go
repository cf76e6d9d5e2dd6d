package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"
	"github.com/org/pipeline-action/engine/stage"
)

// DispatchEffect builds the effect, keyed key, that starts ag for run's attempt of s.
func DispatchEffect(c stage.Context, run *model.Run, s *lang.Stage, ag *lang.Agent, key string) (model.Effect, error) {
	sr := run.Stages[s.ID]
	facts := c.Facts()
	eff := model.Effect{Key: key, Run: run.ID, Stage: s.ID, Kind: model.EffectDispatch, Number: facts.PR.Number,
		Agent: ag.Name, Dispatch: ag.Dispatch}
	env := dispatchEnv(c, run, s, ag)
	feedback, text := c.Feedback()
	switch ag.Dispatch {
	case lang.DispatchWorkflow, lang.DispatchRepositoryDispatch:
		ctx, err := Context(s, env)
		if err != nil {
			return eff, err
		}
		if len(feedback) > 0 {
			ctx["human_feedback"] = feedback // what reviewers ask to change, in their words
		}
		continueSession(c, run, s, ag, &eff, ctx)
		b, err := json.Marshal(ctx)
		if err != nil {
			return eff, fmt.Errorf("the context does not encode as JSON: %v", err)
		}
		eff.Inputs = map[string]string{
			"run": run.ID, "stage": s.ID, "attempt": strconv.Itoa(sr.Attempt),
			"subject": c.Subject(), "action": s.AgentAction, "context": string(b),
			"nonce": dispatchNonce(c, run, s.ID, sr),
		}
		eff.Workflow, eff.Ref, eff.EventType = ag.Workflow, ag.Ref, ag.EventType
		if err := model.CheckDispatchPayload(eff.Inputs); err != nil && ag.Dispatch == lang.DispatchWorkflow {
			return eff, err
		}
		if ag.Dispatch == lang.DispatchWorkflow && eff.Ref == "" {
			eff.Ref = facts.DefaultBranch
		}
	case lang.DispatchComment:
		body := ag.Body
		if strings.Contains(body, "{{") {
			t, cerr := lang.CompileTemplate(body, ag.Pos)
			if cerr != nil {
				return eff, fmt.Errorf("its body: %s", cerr.Message)
			}
			// What the templates fill in (a title, an agent's feedback) is inert: no marker of
			// the action's own, no link, image or mention.
			out, err := render.Message(t, env)
			if err != nil {
				return eff, err
			}
			body = out
		}
		if len(feedback) > 0 {
			// What a workflow agent gets as human_feedback, a comment agent reads here: in
			// the reviewers' words, made inert.
			body += "\n\nChanges requested:\n" + markdown.InertText(text)
		}
		eff.Body = body + "\n\n" + ReportHint(run, s, sr.Attempt, dispatchNonce(c, run, s.ID, sr))
		continueSession(c, run, s, ag, &eff, nil)
	case lang.DispatchLabel:
		eff.Labels = []string{ag.Label}
		continueSession(c, run, s, ag, &eff, nil)
		attemptNonce(c, run, s.ID, sr) // shown in the status: AwaitReport
	case lang.DispatchAssign:
		eff.Assignees = []string{ag.Assignee}
		continueSession(c, run, s, ag, &eff, nil)
		attemptNonce(c, run, s.ID, sr)
	default:
		return eff, fmt.Errorf("unknown dispatch kind %q", ag.Dispatch)
	}
	return eff, nil
}

// dispatchEnv is what a dispatch of agent ag at s renders with: the run's whole env when
// the stage's context or config, or the agent's comment, has something to evaluate;
// otherwise the run's context only, all that Context reads then. A parallel stage
// dispatches all its branches in one event, and the whole env (every stage's and every
// branch's entry) built for each would cost with the square of the branches.
func dispatchEnv(c stage.Context, run *model.Run, s *lang.Stage, ag *lang.Agent) lang.Env {
	if len(s.Context) > 0 || len(s.Values) > 0 || (ag.Dispatch == lang.DispatchComment && strings.Contains(ag.Body, "{{")) {
		return c.Env()
	}
	ctx := make(map[string]any, len(run.Context))
	for k, v := range run.Context {
		ctx[k] = v
	}
	return lang.Env{"context": ctx}
}

// Context is what the `context` input of a dispatch holds: the run's context, the
// stage's `context:` over it, and the stage's `config:` under "config".
func Context(s *lang.Stage, env lang.Env) (map[string]any, error) {
	out := map[string]any{}
	if c, ok := env["context"].(map[string]any); ok {
		for k, v := range c {
			out[k] = v
		}
	}
	for _, kv := range s.Context {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			return nil, fmt.Errorf("context %q: %v", kv.Key, err)
		}
		out[kv.Key] = v
	}
	if len(s.Values) > 0 {
		cfg := map[string]any{}
		for _, kv := range s.Values {
			v, err := lang.ValueOf(kv.Value, env)
			if err != nil {
				return nil, fmt.Errorf("config %q: %v", kv.Key, err)
			}
			cfg[kv.Key] = v
		}
		out["config"] = cfg
	}
	return out, nil
}

// ReportHint is the line a comment dispatch ends with: how the agent reports back.
func ReportHint(run *model.Run, s *lang.Stage, attempt int, nonce string) string {
	return fmt.Sprintf("<sub>Report back with `pipeline-action report --run %s --stage %s --attempt %d --nonce %s --verdict <verdict>`.</sub>",
		run.ID, s.ID, attempt, nonce)
}
