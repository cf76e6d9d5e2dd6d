package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/feedback"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// Agent stages. Entering one asks for a dispatch effect by the agent's `dispatch` kind;
// the stage then waits for the agent's report (Input.Report), whose verdict picks the
// transition. A dispatch GitHub does not deduplicate (a workflow_dispatch, a
// repository_dispatch, a comment) is write-ahead, like a merge: it is never performed
// twice. An agent that ends without a report (Input.AgentFailure) is an agent error,
// which `on_error: {retry, then}` handles.

// Verdicts lists the verdicts a report may carry.
var Verdicts = []string{lang.VerdictComplete, lang.VerdictFollowup, lang.VerdictFailed, lang.VerdictApprove, lang.VerdictReject, lang.VerdictRevise}

// MaxOutputs bounds the JSON of a report's outputs: they are kept in the state.
const MaxOutputs = 16 << 10

// DispatchInputs are the inputs a `dispatch: workflow` agent's workflow must declare
// (workflow_dispatch refuses inputs a workflow does not declare, and takes at most
// MaxDispatchInputs).
var DispatchInputs = []string{"run", "stage", "attempt", "subject", "action", "context", "nonce"}

// agent evaluates agent stage of run: dispatches it once per attempt, then waits.
func (e *eval) agent(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	key := core.DispatchKey(run, stage)
	ag := e.Cfg.Agent(stage.Agent)
	// Only a comment dispatch leaves a trace on the subject: its marker.
	if slices.Contains(run.Applied, key) || (ag != nil && ag.Dispatch == lang.DispatchComment && slices.Contains(e.Facts.PR.Posted, key)) {
		run.Applied = model.AppendOnce(run.Applied, key)
		if e.agentReview(p, run, stage, ag) {
			return true
		}
		e.awaitReport(run, stage)
		return false
	}
	if ag == nil {
		return e.agentError(run, stage, fmt.Sprintf("agent %q is not in the config", stage.Agent))
	}
	eff, err := e.dispatchEffect(p, run, stage, ag, key)
	if err != nil {
		return e.agentError(run, stage, fmt.Sprintf("dispatching agent %q: %v", ag.Name, err))
	}
	if sr.Status == model.StageRetrying && e.Settling() {
		run.Status = model.RunWaiting
		return false
	}
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	// A new attempt: the last verdict no longer stands, and the next is given on this head.
	sr.HeadSHA, sr.Verdict = e.HeadOf(run), "" // the run's pull request's head
	sr.AgentRun = 0                            // until GitHub tells the new dispatch's
	if core.DispatchWriteAhead(ag.Dispatch) {
		e.Intend(run, sr, &eff)
	}
	e.Effects = append(e.Effects, eff)
	return false
}

// awaitReport leaves an agent stage whose dispatch is done waiting for the report.
func (e *eval) awaitReport(run *model.Run, stage *lang.Stage) {
	sr := run.Stages[stage.ID]
	sr.Status = model.StageWaiting
	if sr.Message == "" {
		sr.Message = fmt.Sprintf("agent %s dispatched (attempt %d); waiting for its report", stage.Agent, sr.Attempt)
		if ag := e.Cfg.Agent(stage.Agent); ag != nil && (ag.Dispatch == lang.DispatchLabel || ag.Dispatch == lang.DispatchAssign) {
			// A label or an assignee carries nothing: the agent reads its nonce here.
			sr.Message += fmt.Sprintf(" (`--run %s --stage %s --attempt %d --nonce %s`)", run.ID, stage.ID, sr.Attempt, e.dispatchNonce(run, stage.ID, sr))
		}
	}
	sr.Results = []model.GateResult{{Check: "report", Status: model.GatePending, Message: sr.Message,
		Who: "agent " + stage.Agent}}
	run.Status = model.RunWaiting
}

// dispatchEffect builds the effect that starts ag for run's stage.
func (e *eval) dispatchEffect(p *lang.Pipeline, run *model.Run, stage *lang.Stage, ag *lang.Agent, key string) (model.Effect, error) {
	sr := run.Stages[stage.ID]
	eff := model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: model.EffectDispatch, Number: e.Facts.PR.Number,
		Agent: ag.Name, Dispatch: ag.Dispatch}
	env := e.dispatchEnv(p, run, stage, ag)
	switch ag.Dispatch {
	case lang.DispatchWorkflow, lang.DispatchRepositoryDispatch:
		ctx, err := e.AgentContext(stage, env)
		if err != nil {
			return eff, err
		}
		if fb := feedback.ChangesRequested(e.Facts.PR); len(fb) > 0 {
			ctx["human_feedback"] = feedback.AsValues(fb) // what reviewers ask to change, in their words
		}
		e.ContinueSession(run, stage, ag, &eff, ctx)
		b, err := json.Marshal(ctx)
		if err != nil {
			return eff, fmt.Errorf("the context does not encode as JSON: %v", err)
		}
		eff.Inputs = map[string]string{
			"run": run.ID, "stage": stage.ID, "attempt": strconv.Itoa(sr.Attempt),
			"subject": e.Subject(), "action": stage.AgentAction, "context": string(b),
			"nonce": e.dispatchNonce(run, stage.ID, sr),
		}
		eff.Workflow, eff.Ref, eff.EventType = ag.Workflow, ag.Ref, ag.EventType
		if err := model.CheckDispatchPayload(eff.Inputs); err != nil && ag.Dispatch == lang.DispatchWorkflow {
			return eff, err
		}
		if ag.Dispatch == lang.DispatchWorkflow && eff.Ref == "" {
			eff.Ref = e.Facts.DefaultBranch
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
		if fb := feedback.ChangesRequested(e.Facts.PR); len(fb) > 0 {
			// What a workflow agent gets as human_feedback, a comment agent reads here: in
			// the reviewers' words, made inert.
			body += "\n\nChanges requested:\n" + markdown.InertText(feedback.Text(fb))
		}
		eff.Body = body + "\n\n" + core.ReportHint(run, stage, sr.Attempt, e.dispatchNonce(run, stage.ID, sr))
		e.ContinueSession(run, stage, ag, &eff, nil)
	case lang.DispatchLabel:
		eff.Labels = []string{ag.Label}
		e.ContinueSession(run, stage, ag, &eff, nil)
		e.AttemptNonce(run, stage.ID, sr) // shown in the status: awaitReport
	case lang.DispatchAssign:
		eff.Assignees = []string{ag.Assignee}
		e.ContinueSession(run, stage, ag, &eff, nil)
		e.AttemptNonce(run, stage.ID, sr)
	default:
		return eff, fmt.Errorf("unknown dispatch kind %q", ag.Dispatch)
	}
	return eff, nil
}

// settleDispatch records the outcome of a dispatch effect.
func (e *eval) settleDispatch(run *model.Run, stage *lang.Stage, o model.Outcome) {
	sr := run.Stages[stage.ID]
	run.Intents = model.DropIntent(run.Intents, o.Key)
	if o.Err == "" {
		run.Applied = model.AppendOnce(run.Applied, o.Key)
		sr.Message = ""
		sr.AgentRun = o.WorkflowRun
		e.Logf("run %s: agent %s dispatched for %s (attempt %d)", run.ID, stage.Agent, stage.ID, sr.Attempt)
		e.awaitReport(run, stage)
		return
	}
	e.NoteRefused(run)
	sr.Tries++
	if o.Permanent {
		e.agentError(run, stage, fmt.Sprintf("dispatching agent %s: %s", stage.Agent, o.Err))
		return
	}
	sr.Message = fmt.Sprintf("dispatching agent %s: %s; tried %d %s; trying again on the next event", stage.Agent, o.Err, sr.Tries, model.Plural(sr.Tries, "time", "times"))
	core.RetryWhenLimitEnds(sr, o.RetryAt) // the sweep comes back when a rate limit ends
	sr.Status = model.StageRetrying
	run.Status = model.RunWaiting
	e.Logf("run %s: %s", run.ID, sr.Message)
}

// applyReport applies an agent's report to run, which stands at that attempt of stage;
// a report the run cannot take is refused and logged.
func (e *eval) applyReport(p *lang.Pipeline, run *model.Run, stage *lang.Stage, r *model.Report) {
	why := ""
	if run.Status == model.RunEscalated {
		// A person stopped it (or its retries ran out): a late report moves nothing until
		// someone says so.
		why = "the run is escalated: it moves on only after a /pipeline command (unblock, retry, skip, restart)"
	}
	if why == "" {
		why = e.WrongNonce(run, stage, run.Stages[stage.ID], r.Nonce)
	}
	if why != "" {
		refuseReport(e, r, why)
		return
	}
	e.applyVerdict(p, run, stage, r, fmt.Sprintf("agent %s reported %s (attempt %d)", stage.Agent, r.Verdict, r.Attempt))
}

// applyVerdict applies report r of the live attempt of stage, which why describes: the
// verdict picks the transition.
func (e *eval) applyVerdict(p *lang.Pipeline, run *model.Run, stage *lang.Stage, r *model.Report, why string) {
	sr := run.Stages[stage.ID]
	// The report proves the dispatch reached the agent.
	key := core.DispatchKey(run, stage)
	run.Intents = model.DropIntent(run.Intents, key)
	run.Applied = model.AppendOnce(run.Applied, key)
	if err := stage.OutputsSchema.Check(r.Outputs); err != nil && r.Verdict != lang.VerdictFailed {
		// Work whose outputs the next stages cannot read is not done: the stage's error.
		e.agentError(run, stage, fmt.Sprintf("agent %s reported outputs that do not match outputs_schema: %v", stage.Agent, err))
		return
	}
	sr.Outputs = lang.JSONSafe(r.Outputs)
	e.associateFrom(p, run, stage, sr.Outputs)
	sr.Errors = 0
	if sr.HeadSHA == "" {
		sr.HeadSHA = e.HeadOf(run)
	}
	sr.Verdict = r.Verdict
	sr.Message = ""
	e.Logf("run %s: %s", run.ID, why)
	if e.branchVerdict(run, stage, r.Verdict, why) {
		return
	}
	switch r.Verdict {
	case lang.VerdictComplete:
		e.leave(run, stage, model.StageSucceeded, stage.OnComplete, why)
		return
	case lang.VerdictApprove:
		if stage.Verdicts[lang.VerdictApprove] == nil {
			e.leave(run, stage, model.StageSucceeded, stage.OnComplete, why)
			return
		}
	}
	rule := stage.Verdicts[r.Verdict]
	if rule == nil {
		sr.Status = model.StageFailed
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("%s, and stage %q has no on_%s", why, stage.ID, r.Verdict))
		return
	}
	e.followRule(p, run, stage, r.Verdict, rule, why)
}

// followRule follows a verdict's loop rule: its context is merged into the run's, and it
// goes to goto while iterations remain, then to then.
func (e *eval) followRule(p *lang.Pipeline, run *model.Run, stage *lang.Stage, verdict string, rule *lang.Rule, why string) {
	env := e.env(p, run)
	if len(rule.Context) > 0 {
		if run.Context == nil {
			run.Context = map[string]any{}
		}
		for _, kv := range rule.Context {
			v, err := lang.ValueOf(kv.Value, env)
			if err != nil {
				e.Logf("run %s: context %q of on_%s of stage %q: %v; left as it was", run.ID, kv.Key, verdict, stage.ID, err)
				continue
			}
			run.Context[kv.Key] = lang.JSONValue(v)
		}
	}
	e.ruleEffects(p, run, stage, rule, "on_"+verdict) // its notify and label, once per attempt
	status := model.StageSucceeded
	if verdict == lang.VerdictFailed || verdict == lang.VerdictReject || verdict == ruleOnAnyReject {
		status = model.StageFailed
	}
	target := rule.Goto
	if rule.MaxIterations > 0 {
		if run.Iterations == nil {
			run.Iterations = map[string]int{}
		}
		k := stage.ID + "/" + verdict
		if run.Iterations[k] >= rule.MaxIterations {
			target = rule.Then
			if target == "" {
				target = lang.TargetFail
			}
			why = fmt.Sprintf("%s; on_%s has looped %d of %d times", why, verdict, run.Iterations[k], rule.MaxIterations)
		} else {
			run.Iterations[k]++
			why = fmt.Sprintf("%s; on_%s: iteration %d of %d", why, verdict, run.Iterations[k], rule.MaxIterations)
			e.MarkNext(run, model.KindLoop)
			e.LoopedBounded(run)
		}
	}
	if target == "" {
		target = rule.Then
	}
	e.leave(run, stage, status, target, why)
	e.MarkNext(nil, "")
}

// env is what templates of run read: its context, the pipeline's variables, the stages'
// outputs, the facts, the run and its subject.
func (e *eval) env(p *lang.Pipeline, run *model.Run) lang.Env {
	stages := map[string]any{}
	for id, sr := range run.Stages {
		outs := sr.Outputs
		if outs == nil {
			outs = map[string]any{}
		}
		stages[id] = map[string]any{"outputs": outs, "status": string(sr.Status), "attempt": sr.Attempt, "verdict": sr.Verdict}
	}
	ctx := map[string]any{}
	for k, v := range run.Context {
		ctx[k] = v
	}
	env := lang.Env{"github": model.FactsEnv(e.Facts), "context": ctx, "stages": stages,
		"run":     map[string]any{"id": run.ID, "pipeline": run.Pipeline, "stage": run.Stage},
		"subject": map[string]any{"repo": e.Facts.Repo, "number": e.Facts.PR.Number}}
	e.issueEnv(run, env)
	if sr := run.Stages[run.Stage]; sr != nil && sr.Outputs != nil {
		env["outputs"] = sr.Outputs
	}
	env["variables"] = e.RunVariables(p, run, env)
	env["shared"] = e.SharedVariables()
	if b := e.branchesEnv(p, run); b != nil {
		env["branches"] = b
	}
	names := make([]any, len(e.Cfg.Agents))
	for i, a := range e.Cfg.Agents {
		names[i] = a.Name
	}
	env["agents"] = names
	return env
}

// agentType dispatches an agent and waits for its report.
type agentType struct {
	noDeadlines
	unguarded
}

func (agentType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.agent(p, run, stage)
}

func (agentType) branch(e *eval, p *lang.Pipeline, run *model.Run, b *lang.Stage) bool {
	e.agent(p, run, b)
	return true
}

func (agentType) answer(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage, a answer) {
	if a.report != nil {
		e.applyReport(p, run, stage, a.report)
		return
	}
	e.applyAgentFailure(run, stage, a.failure)
}

func (agentType) worker(s *lang.Stage) (kind, name string) { return "agent", s.Agent }
