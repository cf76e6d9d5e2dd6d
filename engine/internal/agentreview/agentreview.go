package agentreview

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// states are the review states that give each verdict a ledger records.
var states = map[string]string{lang.VerdictApprove: model.ReviewApproved, lang.VerdictReject: model.ReviewChangesRequested}

// Dismissed says why the verdict of agent stage record sr no longer stands, or "": the
// agent (login) reviewed the head sr names since the attempt was entered, and every such
// review in the verdict's state has since been dismissed (GitHub keeps a dismissed review's
// commit and time, and makes its state DISMISSED). A verdict no review of login gave — a
// report — stands, unless a review of login on that head was dismissed and none remains.
func Dismissed(pr *model.PullRequest, agent, login string, sr *model.StageRun) string {
	want := states[sr.Verdict]
	if login == "" || want == "" || sr.HeadSHA == "" {
		return ""
	}
	dismissed := false
	for _, r := range pr.Reviews {
		if !strings.EqualFold(r.Author, login) || r.CommitSHA != sr.HeadSHA || r.SubmittedAt.Before(sr.EnteredAt) {
			continue
		}
		switch r.State {
		case want:
			return ""
		case model.ReviewDismissed:
			dismissed = true
		}
	}
	if !dismissed {
		return ""
	}
	why := fmt.Sprintf("agent %s's review (%s) was dismissed", agent, login)
	if by, _ := authority.Dismisser(pr, login); by != "" {
		why += " by " + by
	}
	return why
}
