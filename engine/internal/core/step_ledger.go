package core

import (
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// IsReviewStage says whether an agent stage reviews: its action is `review`, or it has
// a rule for approve, reject or revise.
func IsReviewStage(s *lang.Stage) bool {
	if s.Type != lang.StageAgent {
		return false
	}
	if strings.EqualFold(s.AgentAction, "review") {
		return true
	}
	for _, v := range []string{lang.VerdictApprove, lang.VerdictReject, lang.VerdictRevise} {
		if s.Verdicts[v] != nil {
			return true
		}
	}
	return false
}

// AgentLedger records review stage s (an agent's), whose record is sr, in l.
func AgentLedger(l *model.Ledger, s *lang.Stage, sr *model.StageRun, head string) {
	ls := model.LedgerStage{Stage: s.ID, Kind: lang.StageAgent}
	if sr.Verdict == lang.VerdictApprove || sr.Verdict == lang.VerdictReject {
		l.Entries = append(l.Entries, model.LedgerEntry{Stage: s.ID, Who: model.LedgerAgent + s.Agent, Verdict: sr.Verdict, SHA: sr.HeadSHA})
	}
	switch {
	case sr.Verdict == "" && sr.Stale != nil && sr.Stale.Verdict == lang.VerdictApprove:
		ls.Why = "agent " + s.Agent + "'s approval is stale (" + sr.Stale.Why + ")"
	case sr.Verdict != lang.VerdictApprove:
		ls.Why = "agent " + s.Agent + " has not approved"
	case head == "" || sr.HeadSHA != head:
		ls.Why = "agent " + s.Agent + " approved an older commit"
	default:
		ls.Met = true
	}
	l.Stages = append(l.Stages, ls)
}
