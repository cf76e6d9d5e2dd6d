package agent

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// An agent with a review login may answer by reviewing the pull request: its first review
// of the run's head since the attempt was entered is that attempt's report.

// MaxBody bounds the bytes of a review's body kept in the outputs, which the state holds
// (MaxOutputs bounds them all).
const MaxBody = 12 << 10

// verdicts maps the states of a review to the verdicts of a report; the others (pending,
// dismissed) give none.
var verdicts = map[string]string{
	model.ReviewApproved:         lang.VerdictApprove,
	model.ReviewChangesRequested: lang.VerdictReject,
	model.ReviewCommented:        lang.VerdictComplete,
}

// review takes the review by ag's login on the run's head, submitted since the stage's
// attempt was entered, as that attempt's report; false when there is none.
func review(c stage.Context, run *model.Run, s *lang.Stage, ag *lang.Agent) (stage.Decision, bool) {
	pr := c.PR() // an issue's run: its pull request's
	if ag == nil || pr == nil {
		return stage.Decision{}, false
	}
	sr, head := run.Stages[s.ID], pr.HeadSHA
	rv, ok := Find(pr.Reviews, ag.ReviewLogin(), head, sr.EnteredAt)
	if !ok {
		return stage.Decision{}, false
	}
	sr.HeadSHA = head // the verdict is given on the head it reviewed
	d := verdict(c, run, s, reviewReport(run.ID, s.ID, sr.Attempt, rv), reviewWhy(s.Agent, rv, sr.Attempt))
	d.Answered = rv.SubmittedAt
	return d, true
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

// reviewReport is review r as the report of attempt of stage of run: its verdict by its
// state, its body as outputs.review (and as outputs.feedback when it requests changes). A
// body someone other than the agent edited is not the agent's word, and is handed on as
// empty.
func reviewReport(run, stage string, attempt int, r model.Review) *model.Report {
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

// reviewWhy is what the history says of r as agent's verdict.
func reviewWhy(agent string, r model.Review, attempt int) string {
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
