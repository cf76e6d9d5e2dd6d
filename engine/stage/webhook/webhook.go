package webhook

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Type is the webhook stage. Entering one asks the shell for one HTTP call
// (EffectWebhook), written ahead like a merge: the state holding its intent is saved before
// the call is made, so that of two invocations only the one whose save won calls, and a
// redelivered event finds the call recorded and does not call again. The answer comes back
// as the effect's outcome: the expected status → on_success; another status, or no answer
// → a new call while on_error's retries remain, then on_failure (or on_error's then; fail
// by default). A call the shell refused to make (its address guard, a missing secret) is
// not retried. A call whose outcome stayed unknown (the invocation that made it ended
// without recording it) is not made again either: it fails the stage.
type Type struct {
	stage.NoDeadlines
	stage.Nobody
}

// Step asks for the stage's next call.
func (Type) Step(c stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	sr := run.Stages[s.ID]
	key := Key(run, s)
	if slices.Contains(run.Applied, key) {
		return failed(c, run, s, fmt.Sprintf("call %s was already made; it is not made twice", key), true)
	}
	call, err := Render(s, c.Settings(), c.TemplateEnv)
	if err != nil {
		return failed(c, run, s, err.Error(), true)
	}
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	eff := model.Effect{Key: key, Run: run.ID, Stage: s.ID, Kind: model.EffectWebhook, Number: c.Facts().PR.Number, Webhook: call}
	c.Intend(sr, &eff)
	c.Emit(eff)
	return stage.Stay()
}

// Owns reports whether key is the call run's stage s asks for now.
func (Type) Owns(run *model.Run, s *lang.Stage, key string) bool {
	return run.Stages[s.ID] != nil && Key(run, s) == key
}

// Settle records what call o.Key got: the call was made, whatever came back, and is never
// made again.
func (Type) Settle(c stage.Context, run *model.Run, s *lang.Stage, o model.Outcome) stage.Decision {
	sr := run.Stages[s.ID]
	run.Applied = model.AppendOnce(run.Applied, o.Key)
	sr.Outputs = nil // the outputs are those of the last call: none when it got no answer
	if o.Response != nil {
		out := map[string]any{"status": o.Response.Status}
		if o.Response.Body != nil {
			if b, err := json.Marshal(o.Response.Body); err == nil && len(b) <= MaxOutput {
				out["body"] = o.Response.Body
			}
		}
		sr.Outputs = lang.JSONSafe(out)
	}
	if o.Err != "" {
		return failed(c, run, s, o.Err, o.Permanent)
	}
	sr.Message = ""
	why := fmt.Sprintf("webhook %s %s answered", s.Request.Method, lang.WebhookHost(s.Request.URL.Src))
	if o.Response != nil {
		why = fmt.Sprintf("%s %d", why, o.Response.Status)
	}
	c.Logf("run %s: %s: %s", run.ID, s.ID, why)
	return stage.Leave(model.StageSucceeded, s.OnSuccess, why)
}

// Lost fails the stage: nothing on GitHub tells whether the call was made, and calling
// again could call twice.
func (Type) Lost(c stage.Context, run *model.Run, s *lang.Stage, it model.Intent) stage.Decision {
	run.Applied = model.AppendOnce(run.Applied, it.Key)
	host := ""
	if s.Request != nil && s.Request.URL != nil {
		host = lang.WebhookHost(s.Request.URL.Src)
	}
	return failed(c, run, s, fmt.Sprintf("whether the call to %s asked for at %s was made is not known (the invocation that made it ended without recording its answer); it is not made again, so that it is not made twice",
		host, it.At.UTC().Format("2006-01-02 15:04 UTC")), true)
}

// failed handles a failed call: another call while on_error's retries remain (unless
// final: calling again cannot help, or could call twice), then on_failure, or on_error's
// then, or fail.
func failed(c stage.Context, run *model.Run, s *lang.Stage, why string, final bool) stage.Decision {
	sr := run.Stages[s.ID]
	sr.Tries++
	retries := 0
	if s.OnError != nil {
		retries = s.OnError.Retry
	}
	if !final && sr.Tries <= retries {
		sr.Status = model.StageRetrying
		sr.Message = fmt.Sprintf("%s; calling again (retry %d of %d)", why, sr.Tries, retries)
		run.Status = model.RunRunning
		c.Logf("run %s: %s: %s", run.ID, s.ID, sr.Message)
		return stage.Stay()
	}
	target := s.OnFailure
	if target == "" && s.OnError != nil {
		target = s.OnError.Then
	}
	if target == "" {
		target = lang.TargetFail
	}
	if retries > 0 && !final {
		why = fmt.Sprintf("%s; %d %s spent", why, retries, model.Plural(retries, "retry", "retries"))
	}
	why = fmt.Sprintf("webhook stage %q failed: %s", s.ID, why)
	sr.Message = why
	c.Logf("run %s: %s", run.ID, why)
	return stage.Leave(model.StageFailed, target, why)
}
