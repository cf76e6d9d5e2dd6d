package agent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Report applies an agent's report to run, which stands at that attempt of s; a report
// the run cannot take is refused and logged.
func (Type) Report(c stage.Context, run *model.Run, s *lang.Stage, r *model.Report) stage.Decision {
	why := ""
	if run.Status == model.RunEscalated {
		// A person stopped it (or its retries ran out): a late report moves nothing until
		// someone says so.
		why = "the run is escalated: it moves on only after a /pipeline command (unblock, retry, skip, restart)"
	}
	if why == "" {
		why = wrongNonce(c, run, s, run.Stages[s.ID], r.Nonce)
	}
	if why != "" {
		c.Logf("%s", Refused(r, why))
		return stage.Stay()
	}
	return verdict(c, run, s, r, fmt.Sprintf("agent %s reported %s (attempt %d)", s.Agent, r.Verdict, r.Attempt))
}

// verdict takes report r of the live attempt of s, which why describes: the verdict
// picks the transition.
func verdict(c stage.Context, run *model.Run, s *lang.Stage, r *model.Report, why string) stage.Decision {
	sr := run.Stages[s.ID]
	// The report proves the dispatch reached the agent.
	key := DispatchKey(run, s)
	run.Intents = model.DropIntent(run.Intents, key)
	run.Applied = model.AppendOnce(run.Applied, key)
	if err := s.OutputsSchema.Check(r.Outputs); err != nil && r.Verdict != lang.VerdictFailed {
		// Work whose outputs the next stages cannot read is not done: the stage's error.
		return stage.Error(fmt.Sprintf("agent %s reported outputs that do not match outputs_schema: %v", s.Agent, err))
	}
	sr.Outputs = lang.JSONSafe(r.Outputs)
	c.Associate(s, sr.Outputs)
	sr.Errors = 0
	if sr.HeadSHA == "" {
		sr.HeadSHA = c.Head()
	}
	sr.Verdict = r.Verdict
	sr.Message = ""
	c.Logf("run %s: %s", run.ID, why)
	return rule(s, r.Verdict, why)
}

// rule is where verdict takes s: complete (and approve without on_approve) to its
// on_complete, another verdict by its on_<verdict> (when it has none, the run fails).
func rule(s *lang.Stage, verdict, why string) stage.Decision {
	switch verdict {
	case lang.VerdictComplete:
		return stage.LeaveWith(verdict, model.StageSucceeded, s.OnComplete, why)
	case lang.VerdictApprove:
		if s.Verdicts[lang.VerdictApprove] == nil {
			return stage.LeaveWith(verdict, model.StageSucceeded, s.OnComplete, why)
		}
	}
	return stage.FollowVerdict(s.Verdicts[verdict], verdict, why)
}

// wrongNonce says why got, the nonce a report carries, is not the one of sr's live
// attempt of s of run; "" when it is.
func wrongNonce(c stage.Context, run *model.Run, s *lang.Stage, sr *model.StageRun, got string) string {
	if !strings.HasPrefix(sr.Nonce, strconv.Itoa(sr.Attempt)+"-") {
		if key := DispatchKey(run, s); !slices.Contains(run.Applied, key) && !hasIntent(run, key) {
			return "this attempt's agent has not been dispatched yet: the report answers another dispatch"
		}
		return "this attempt was dispatched without a nonce (by an earlier version of the action); `/pipeline retry` dispatches it anew"
	}
	if got == "" {
		return "it carries no nonce (the agent's workflow passes its dispatch's `nonce` input to the report)"
	}
	plain, tag, signed := strings.Cut(got, ".")
	if plain != sr.Nonce {
		return "its nonce is not the one of the stage's live attempt: it answers another dispatch (an earlier one, re-run or replayed)"
	}
	if signer := c.Signer(); signer != nil && (!signed || !signer.VerifyNonce(model.NonceMessage(c.Subject(), run.ID, s.ID, plain), tag)) {
		return "its nonce is not signed with the state key"
	}
	return ""
}

// hasIntent reports whether run holds the intent of effect key.
func hasIntent(run *model.Run, key string) bool {
	for _, it := range run.Intents {
		if it.Key == key {
			return true
		}
	}
	return false
}

// Refused is the log line of r, a report refused for why.
func Refused(r *model.Report, why string) string {
	return fmt.Sprintf("report %s for run %q, stage %q, attempt %d refused: %s", r.Verdict, r.Run, r.Stage, r.Attempt, why)
}
