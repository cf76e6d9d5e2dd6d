package engine

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/webhookcall"
	"github.com/org/pipeline-action/engine/lang"
)

// Webhook stages. Entering one asks the shell for one HTTP call (EffectWebhook), written
// ahead like a merge: the state holding its intent is saved before the call is made, so
// that of two invocations only the one whose save won calls, and a redelivered event
// finds the call recorded and does not call again. The answer comes back as the effect's
// outcome: the expected status → on_success; another status, or no answer → a new call
// while on_error's retries remain, then on_failure (or on_error's then; fail by default).
// A call the shell refused to make (its address guard, a missing secret) is not retried.
// A call whose outcome stayed unknown (the invocation that made it ended without
// recording it) is not made again either: it fails the stage.
//
// What PR data may change in a request is limited: the scheme and host of the url are
// written literally (validation), and a template's value in the path or query is
// escaped, so it stays within its path segment or query value.

// Bounds of a webhook call.
const (
	DefaultWebhookTimeout = webhookcall.DefaultTimeout
	MaxWebhookBody        = webhookcall.MaxBody
	MaxWebhookOutput      = webhookcall.MaxOutput
)

// webhook evaluates webhook stage of run: asks for its next call.
func (e *eval) webhook(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	key := core.WebhookKey(run, stage)
	if slices.Contains(run.Applied, key) {
		return e.webhookFailed(run, stage, fmt.Sprintf("call %s was already made; it is not made twice", key), true)
	}
	call, err := webhookcall.Render(stage, &e.Cfg.Settings, func() lang.Env { return e.templateEnv(p, run) })
	if err != nil {
		return e.webhookFailed(run, stage, err.Error(), true)
	}
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	eff := model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: model.EffectWebhook, Number: e.Facts.PR.Number, Webhook: call}
	e.Intend(run, sr, &eff)
	e.Effects = append(e.Effects, eff)
	return false
}

// settleWebhook records outcome o if it is the outcome of a webhook call, and reports
// whether it was one.
func (e *eval) settleWebhook(o model.Outcome) bool {
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.Cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		if stage == nil || stage.Type != lang.StageWebhook || run.Stages[stage.ID] == nil || core.WebhookKey(run, stage) != o.Key {
			continue
		}
		e.webhookOutcome(run, stage, o)
		return true
	}
	return false
}

// webhookOutcome records what call o.Key got: the call was made, whatever came back, and
// is never made again.
func (e *eval) webhookOutcome(run *model.Run, stage *lang.Stage, o model.Outcome) {
	sr := run.Stages[stage.ID]
	run.Intents = core.DropIntent(run.Intents, o.Key)
	run.Applied = core.AppendOnce(run.Applied, o.Key)
	sr.Outputs = nil // the outputs are those of the last call: none when it got no answer
	if o.Response != nil {
		out := map[string]any{"status": o.Response.Status}
		if o.Response.Body != nil {
			if b, err := json.Marshal(o.Response.Body); err == nil && len(b) <= MaxWebhookOutput {
				out["body"] = o.Response.Body
			}
		}
		sr.Outputs = lang.JSONSafe(out)
	}
	if o.Err == "" {
		sr.Message = ""
		why := fmt.Sprintf("webhook %s %s answered", stage.Request.Method, lang.WebhookHost(stage.Request.URL.Src))
		if o.Response != nil {
			why = fmt.Sprintf("%s %d", why, o.Response.Status)
		}
		e.Logf("run %s: %s: %s", run.ID, stage.ID, why)
		e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, why)
		return
	}
	e.webhookFailed(run, stage, o.Err, o.Permanent)
}

// webhookFailed handles a failed call: another call while on_error's retries remain
// (unless final: calling again cannot help, or could call twice), then on_failure, or
// on_error's then, or fail. It reports whether the run moved.
func (e *eval) webhookFailed(run *model.Run, stage *lang.Stage, why string, final bool) bool {
	sr := run.Stages[stage.ID]
	sr.Tries++
	retries := 0
	if stage.OnError != nil {
		retries = stage.OnError.Retry
	}
	if !final && sr.Tries <= retries {
		sr.Status = model.StageRetrying
		sr.Message = fmt.Sprintf("%s; calling again (retry %d of %d)", why, sr.Tries, retries)
		run.Status = model.RunRunning
		e.Logf("run %s: %s: %s", run.ID, stage.ID, sr.Message)
		return false
	}
	target := stage.OnFailure
	if target == "" && stage.OnError != nil {
		target = stage.OnError.Then
	}
	if target == "" {
		target = lang.TargetFail
	}
	if retries > 0 && !final {
		why = fmt.Sprintf("%s; %d %s spent", why, retries, model.Plural(retries, "retry", "retries"))
	}
	why = fmt.Sprintf("webhook stage %q failed: %s", stage.ID, why)
	sr.Message = why
	e.Logf("run %s: %s", run.ID, why)
	e.leave(run, stage, model.StageFailed, target, why)
	return !run.Status.Final()
}

// reconcileWebhook settles a webhook intent found in the state. Nothing on GitHub tells
// whether the call was made: once the invocation that asked for it has surely ended, its
// outcome is unknown, and the call is not made again (it could be made twice): the stage
// fails.
func (e *eval) reconcileWebhook(run *model.Run, stage *lang.Stage, it model.Intent) {
	sr := run.Stages[it.Stage]
	if run.Stage != it.Stage || sr == nil || sr.Attempt != it.Attempt || core.WebhookKey(run, stage) != it.Key {
		run.Intents = core.DropIntent(run.Intents, it.Key)
		e.Logf("run %s: intent %s: the run has moved on from it; dropped", run.ID, it.Key)
		return
	}
	if o, ok := e.Outcome(it.Key); ok {
		e.webhookOutcome(run, stage, o)
		return
	}
	if e.Now.Before(it.InFlightUntil()) {
		e.InFlight(run, it)
		return
	}
	run.Intents = core.DropIntent(run.Intents, it.Key)
	run.Applied = core.AppendOnce(run.Applied, it.Key)
	host := ""
	if stage.Request != nil && stage.Request.URL != nil {
		host = lang.WebhookHost(stage.Request.URL.Src)
	}
	e.webhookFailed(run, stage, fmt.Sprintf("whether the call to %s asked for at %s was made is not known (the invocation that made it ended without recording its answer); it is not made again, so that it is not made twice",
		host, it.At.UTC().Format("2006-01-02 15:04 UTC")), true)
}

// webhookType calls a URL and waits for its answer.
type webhookType struct {
	noDeadlines
	unguarded
	noBranch
	noAnswers
	nobody
}

func (webhookType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.webhook(p, run, stage)
}
