package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Time in a run: what happens when a stage's timeout passes (on_timeout), and delay
// stages with their polls. See deadline.go for how deadlines are kept and found due.

// timeoutKey is the key of an effect of on_timeout (kind) for timeout d of the stage's
// entry attempt: each timeout of an entry (the first, then one per extension) has its own.
func timeoutKey(run *Run, stage *lang.Stage, attempt int, d Deadline, kind EffectKind) string {
	return fmt.Sprintf("%s/%s/%d/on_timeout/%d/%s", run.ID, stage.ID, attempt, d.N+1, kind)
}

// sideOutcome reports whether o is the outcome of an effect a deadline asked for (an
// on_timeout label or notification), which no acting stage waits for: it is logged,
// nothing more.
func (e *eval) sideOutcome(o Outcome) bool {
	if !strings.Contains(o.Key, "/on_timeout/") {
		return false
	}
	if o.Err != "" {
		e.logf("%s: %s; it is not tried again", o.Key, o.Err)
	}
	return true
}

// timedOut applies the stage's on_timeout: label, then extend, or go to its target
// (fail by default).
func (e *eval) timedOut(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool {
	sr := run.Stages[stage.ID]
	r := stage.OnTimeout
	why := fmt.Sprintf("stage %q timed out at %s", stage.ID, d.At.UTC().Format("2006-01-02 15:04 UTC"))
	if d.N > 0 {
		why += fmt.Sprintf(" (after %d %s)", d.N, plural(d.N, "extension", "extensions"))
	}
	target := lang.TargetFail
	if r != nil {
		if len(r.Labels) > 0 {
			var missing []string
			for _, l := range r.Labels {
				if !e.facts.PR.HasLabel(l) && !hasLabel(missing, l) {
					missing = append(missing, l)
				}
			}
			if len(missing) > 0 {
				e.effects = append(e.effects, Effect{Key: timeoutKey(run, stage, sr.Attempt, d, EffectAddLabel), Run: run.ID, Stage: stage.ID,
					Kind: EffectAddLabel, Number: e.facts.PR.Number, Labels: missing})
			}
		}
		if r.Notify != nil {
			e.timeoutNotify(p, run, stage, d, why)
		}
		switch {
		case r.Then == lang.ThenExtend && r.Extend > 0 && (r.MaxExtensions == 0 || d.N < r.MaxExtensions):
			next := Deadline{Kind: DeadlineTimeout, At: d.At.Add(r.Extend), N: d.N + 1}
			sr.Deadlines = append(sr.Deadlines, next)
			limit := "no limit"
			if r.MaxExtensions > 0 {
				limit = fmt.Sprintf("%d of %d", next.N, r.MaxExtensions)
			}
			sr.Message = fmt.Sprintf("timeout extended by %s to %s (%s)", shortDuration(r.Extend), next.At.UTC().Format("2006-01-02 15:04 UTC"), limit)
			e.logf("run %s: %s; %s", run.ID, why, sr.Message)
			return false
		case r.Then == lang.ThenExtend:
			why += fmt.Sprintf("; extended %d %s, the most on_timeout allows", d.N, plural(d.N, "time", "times"))
		case r.Then != "":
			target = r.Then
		case r.Goto != "":
			target = r.Goto
		}
	}
	sr.Message = why
	switch target {
	case lang.TargetEscalate:
		sr.Status = StageFailed
		e.escalateRun(run, why)
	case lang.TargetCancel:
		e.finish(run, RunCancelled, TargetCancelled, why)
	default:
		e.leave(run, stage, StageFailed, target, why)
	}
	return true
}

// escalateRun stops run to wait for a person (see escalate).
func (e *eval) escalateRun(run *Run, why string) { e.escalate(run, why) }

// armDelay arms a delay stage: its end, and its first poll.
func armDelay(stage *lang.Stage, sr *StageRun, now time.Time) {
	if stage.Type != lang.StageDelay {
		return
	}
	end := now.Add(stage.Duration)
	sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineDelay, At: end})
	if p := stage.Poll; p != nil && p.Interval > 0 && now.Add(p.Interval).Before(end) {
		sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlinePoll, At: now.Add(p.Interval)})
	}
}

// delayWait keeps a delay stage waiting until one of its deadlines moves it.
func (e *eval) delayWait(run *Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	sr.Status = StageWaiting
	run.Status = RunWaiting
	return false
}

func (e *eval) delayEnded(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool {
	e.leave(run, stage, StagePassed, nextOf(p, stage, stage.OnComplete), fmt.Sprintf("waited %s", shortDuration(stage.Duration)))
	return true
}

// pollDue checks a delay's poll condition: when it holds, the delay ends early (or goes
// to on_ready's stage); otherwise the next check is one interval on, before the end.
func (e *eval) pollDue(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool {
	sr := run.Stages[stage.ID]
	poll := stage.Poll
	if poll == nil || poll.Condition == nil || poll.Interval <= 0 {
		return false
	}
	ok, err := poll.Condition.Bool(e.env(p, run))
	if err != nil {
		e.logf("run %s: the poll condition of stage %q at %s: %v; checked again at the next interval", run.ID, stage.ID, poll.Pos, err)
	}
	if ok {
		if poll.OnReady == lang.PollSkipRemaining || poll.OnReady == "" {
			e.leave(run, stage, StagePassed, nextOf(p, stage, stage.OnComplete), "the poll condition holds; the rest of the delay is skipped")
		} else {
			e.leave(run, stage, StagePassed, poll.OnReady, "the poll condition holds")
		}
		return true
	}
	end := time.Time{}
	for _, x := range sr.Deadlines {
		if x.Kind == DeadlineDelay {
			end = x.At
		}
	}
	next := d.At.Add(poll.Interval)
	for !next.After(e.now) {
		next = next.Add(poll.Interval)
	}
	if end.IsZero() || next.Before(end) {
		sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlinePoll, At: next, N: d.N + 1})
	}
	return false
}

// nextOf is where a stage goes on by default: target when set, else the next stage in
// the pipeline, else complete.
func nextOf(p *lang.Pipeline, stage *lang.Stage, target string) string {
	if target != "" {
		return target
	}
	for i, s := range p.Stages {
		if s.ID == stage.ID && i+1 < len(p.Stages) {
			return p.Stages[i+1].ID
		}
	}
	return lang.TargetComplete
}

// timeoutNotify posts on_timeout's notification, once per timeout (each extension's
// timeout notifies again). Like a pipeline's lists, the state that handled the timeout is
// saved before it is posted (write-ahead), so only the invocation whose save won posts it;
// its marker keeps a later evaluation from posting it again.
func (e *eval) timeoutNotify(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline, why string) {
	sr := run.Stages[stage.ID]
	n := stage.OnTimeout.Notify
	eff := Effect{Key: timeoutKey(run, stage, sr.Attempt, d, EffectComment), Run: run.ID, Stage: stage.ID, Number: e.facts.PR.Number}
	msg := n.Message
	if msg == nil {
		if t, err := lang.CompileTemplate(why+".", n.Pos); err == nil {
			msg = t
		}
	}
	plan := e.planNotify(run, eff, n.Target, msg, e.templateEnv(p, run))
	switch {
	case plan.err != "":
		e.logf("run %s: the notification of on_timeout of stage %q (at %s): %s", run.ID, stage.ID, n.Pos, plan.err)
	case plan.done != "":
		e.logf("run %s: the notification of on_timeout of stage %q: %s", run.ID, stage.ID, plan.done)
	default:
		plan.eff.WriteAhead = true
		e.effects = append(e.effects, plan.eff)
	}
}
