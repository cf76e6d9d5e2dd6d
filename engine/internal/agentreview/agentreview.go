package agentreview

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// MaxBody bounds the bytes of a review's body kept in the outputs, which the state holds
// (core's MaxOutputs bounds them all).
const MaxBody = 12 << 10

// verdicts maps the states of a review to the verdicts of a report; the others (pending,
// dismissed) give none.
var verdicts = map[string]string{
	model.ReviewApproved:         lang.VerdictApprove,
	model.ReviewChangesRequested: lang.VerdictReject,
	model.ReviewCommented:        lang.VerdictComplete,
}

// Find is the review among reviews (oldest first) that is the verdict of an attempt entered
// at entered: the first one by login (case-insensitive) submitted after entered on head.
// Reviews of anyone else, of another commit or from before the attempt are never it.
func Find(reviews []model.Review, login, head string, entered time.Time) (model.Review, bool) {
	if login == "" || head == "" {
		return model.Review{}, false
	}
	for _, r := range reviews {
		if verdicts[r.State] == "" || !strings.EqualFold(r.Author, login) || r.CommitSHA != head || !r.SubmittedAt.After(entered) {
			continue
		}
		return r, true
	}
	return model.Review{}, false
}

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

// Report is review r as the report of attempt of stage of run: its verdict by its state,
// its body as outputs.review (and as outputs.feedback when it requests changes). A body
// someone other than the agent edited is not the agent's word, and is handed on as empty.
func Report(run, stage string, attempt int, r model.Review) *model.Report {
	body := clip(strings.TrimSpace(r.Body))
	if r.EditedBy != "" {
		body = ""
	}
	out := map[string]any{"review": body}
	if r.State == model.ReviewChangesRequested {
		out["feedback"] = body
	}
	return &model.Report{Run: run, Stage: stage, Attempt: attempt, Verdict: verdicts[r.State], Outputs: out}
}

// Why is what the history says of r as agent's verdict.
func Why(agent string, r model.Review, attempt int) string {
	state := strings.ReplaceAll(strings.ToLower(r.State), "_", " ")
	return fmt.Sprintf("agent %s reviewed %.7s as %s: %s, verdict %s (attempt %d)", agent, r.CommitSHA, r.Author, state, verdicts[r.State], attempt)
}

// clip cuts s to at most MaxBody bytes, on a character boundary.
func clip(s string) string {
	if len(s) <= MaxBody {
		return s
	}
	cut := MaxBody
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …"
}

// After makes the stages of run entered at now, before review r was submitted, count as
// entered when it was: a clock behind GitHub's must not let r answer their attempts too.
func After(run *model.Run, now time.Time, r model.Review) {
	if !r.SubmittedAt.After(now) {
		return
	}
	for _, sr := range run.Stages {
		if sr.EnteredAt.Equal(now) {
			sr.EnteredAt = r.SubmittedAt
		}
	}
}
