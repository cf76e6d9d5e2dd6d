package deadline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// timedOut applies the stage's on_timeout: label, then extend, or go to its target
// (fail by default).
func timedOut(_ *Table, k Kernel, run *model.Run, stage *lang.Stage, d model.Deadline) bool {
	sr := run.Stages[stage.ID]
	r := stage.OnTimeout
	why := fmt.Sprintf("stage %q timed out at %s", stage.ID, d.At.UTC().Format("2006-01-02 15:04 UTC"))
	if d.N > 0 {
		why += fmt.Sprintf(" (after %d %s)", d.N, model.Plural(d.N, "extension", "extensions"))
	}
	if r == nil && stage.OnError != nil && stage.Type == lang.StageAgent {
		// An agent that never answered failed: its on_error retries it and then
		// does what it says, unless the stage's own on_timeout says otherwise.
		sr.Message = why
		return k.AgentError(run, stage, why)
	}
	target := lang.TargetFail
	if r != nil {
		if len(r.Labels) > 0 {
			var missing []string
			for _, l := range r.Labels {
				if !k.PR().HasLabel(l) && !slices.ContainsFunc(missing, func(m string) bool { return lang.SameLabel(m, l) }) {
					missing = append(missing, l)
				}
			}
			if len(missing) > 0 {
				k.Emit(model.Effect{Key: timeoutKey(run, stage, sr.Attempt, d, model.EffectAddLabel), Run: run.ID, Stage: stage.ID,
					Kind: model.EffectAddLabel, Number: k.PR().Number, Labels: missing})
			}
		}
		if r.Notify != nil {
			timeoutNotify(k, run, stage, d, why)
		}
		switch {
		case r.Then == lang.ThenExtend && r.Extend > 0 && (r.MaxExtensions == 0 || d.N < r.MaxExtensions):
			next := model.Deadline{Kind: model.DeadlineTimeout, At: d.At.Add(r.Extend), N: d.N + 1}
			sr.Deadlines = append(sr.Deadlines, next)
			limit := "no limit"
			if r.MaxExtensions > 0 {
				limit = fmt.Sprintf("%d of %d", next.N, r.MaxExtensions)
			}
			sr.Message = fmt.Sprintf("timeout extended by %s to %s (%s)", graph.ShortDuration(r.Extend), next.At.UTC().Format("2006-01-02 15:04 UTC"), limit)
			k.Logf("run %s: %s; %s", run.ID, why, sr.Message)
			return false
		case r.Then == lang.ThenExtend:
			why += fmt.Sprintf("; extended %d %s, the most on_timeout allows", d.N, model.Plural(d.N, "time", "times"))
		case r.Then != "":
			target = r.Then
		case r.Goto != "":
			target = r.Goto
		}
	}
	sr.Message = why
	switch target {
	case lang.TargetEscalate:
		sr.Status = model.StageFailed
		k.Escalate(run, why)
	case lang.TargetCancel:
		k.Cancel(run, why)
	default:
		k.Leave(run, stage, model.StageFailed, target, why)
	}
	return true
}

// timeoutNotify posts on_timeout's notification, once per timeout (each extension's
// timeout notifies again). Like a pipeline's lists, the state that handled the timeout is
// saved before it is posted (write-ahead), so only the invocation whose save won posts it;
// its marker keeps a later evaluation from posting it again.
func timeoutNotify(k Kernel, run *model.Run, stage *lang.Stage, d model.Deadline, why string) {
	sr := run.Stages[stage.ID]
	n := stage.OnTimeout.Notify
	eff := model.Effect{Key: timeoutKey(run, stage, sr.Attempt, d, model.EffectComment), Run: run.ID, Stage: stage.ID, Number: k.PR().Number}
	msg := n.Message
	if msg == nil {
		if t, err := lang.CompileTemplate(why+".", n.Pos); err == nil {
			msg = t
		}
	}
	out, done, err := k.Notify(run, eff, n.Target, msg)
	switch {
	case err != "":
		k.Logf("run %s: the notification of on_timeout of stage %q (at %s): %s", run.ID, stage.ID, n.Pos, err)
	case done != "":
		k.Logf("run %s: the notification of on_timeout of stage %q: %s", run.ID, stage.ID, done)
	default:
		out.WriteAhead = true
		k.Emit(out)
	}
}

// timeoutKey is the key of an effect of on_timeout (kind) for timeout d of the stage's
// entry attempt: each timeout of an entry (the first, then one per extension) has its own.
func timeoutKey(run *model.Run, stage *lang.Stage, attempt int, d model.Deadline, kind model.EffectKind) string {
	return fmt.Sprintf("%s/%s/%d/on_timeout/%d/%s", run.ID, stage.ID, attempt, d.N+1, kind)
}

// SideOutcome reports whether o is the outcome of an effect a deadline asked for (an
// on_timeout label or notification), which no acting stage waits for: it is logged,
// nothing more.
func SideOutcome(o model.Outcome, logf func(format string, args ...any)) bool {
	if !strings.Contains(o.Key, "/on_timeout/") {
		return false
	}
	if o.Err != "" {
		logf("%s: %s; it is not tried again", o.Key, o.Err)
	}
	return true
}
