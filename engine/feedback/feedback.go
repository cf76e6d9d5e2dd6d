package feedback

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Bounds on what is handed on: people write long reviews, and what an agent is given
// travels in a dispatch's inputs (65,535 characters in all).
const (
	MaxText    = 4000 // characters of one review or comment
	MaxEntries = 10   // reviews or comments
)

// Entry is one person's words: who, in which review state or as which comment, and the text.
type Entry struct {
	By    string `json:"by"`
	State string `json:"state,omitempty"` // a review's: APPROVED, CHANGES_REQUESTED, …
	Body  string `json:"body"`
}

// ChangesRequested is what reviewers ask to change on pr now: the latest review of each
// person with write access (not an app, not the author) that requests changes and says
// something, oldest first. Anyone may review a public repository's pull request; only the
// words of those who may push reach an agent, which acts on them — and only their own: a
// review whose body someone else edited is left out.
func ChangesRequested(pr *model.PullRequest) []Entry {
	var out []Entry
	for _, r := range model.LatestReviews(pr.Reviews) {
		if r.State != model.ReviewChangesRequested || r.IsBot || r.EditedBy != "" || !r.CanPush || strings.EqualFold(r.Author, pr.Author) || strings.TrimSpace(r.Body) == "" {
			continue
		}
		out = append(out, Entry{By: r.Author, State: r.State, Body: clip(r.Body)})
	}
	return last(out)
}

// AsValues is entries as the values of a context or of outputs.
func AsValues(entries []Entry) []any {
	out := make([]any, len(entries))
	for i, e := range entries {
		m := map[string]any{"by": e.By, "body": e.Body}
		if e.State != "" {
			m["state"] = e.State
		}
		out[i] = m
	}
	return out
}

// Text is entries as lines of a notification: "@carol: please add tests". The caller
// makes it inert.
func Text(entries []Entry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.By + ": " + strings.Join(strings.Fields(e.Body), " ") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// HumanOutputs is what a human stage that passed hands on, as `stages.<id>.outputs`: who
// counted (`by`), and by what they wait for — the approving reviews with their bodies and
// the `/pipeline approve` comments (`reviews`), the comment that matched (`comment`, with
// `comments` for all of them), the label (`label`).
func HumanOutputs(stage *lang.Stage, sr *model.StageRun, who []string, pr *model.PullRequest) map[string]any {
	by := make([]any, len(who))
	for i, w := range who {
		by[i] = w
	}
	out := map[string]any{"by": by}
	counted := func(login string) bool { return model.HasLogin(who, login) }
	switch stage.WaitFor {
	case lang.WaitApproval:
		var reviews []Entry
		for _, r := range model.LatestReviews(pr.Reviews) {
			if r.State == model.ReviewApproved && counted(r.Author) && r.EditedBy == "" { // only their own words
				reviews = append(reviews, Entry{By: r.Author, State: r.State, Body: clip(r.Body)})
			}
		}
		for _, a := range sr.Approvals {
			// Only a command that is still its author's word, as GitHub shows it now.
			if c := pr.Comment(a.Comment); counted(a.Login) && authority.StillCommand(c, a, model.CmdApprove) == "" {
				reviews = append(reviews, Entry{By: a.Login, State: model.ReviewApproved, Body: clip(c.Body)})
			}
		}
		out["reviews"] = AsValues(last(reviews))
	case lang.WaitComment:
		comments := matching(stage, sr, pr, counted)
		out["comments"] = AsValues(comments)
		if len(comments) > 0 {
			out["comment"] = comments[len(comments)-1].Body
		}
	case lang.WaitLabel:
		out["label"] = stage.WaitLabel
	}
	return out
}

// matching is the comments of counted people that match the stage's pattern, written
// since the stage's attempt was entered (sr) and still their authors' own word (no one
// else edited them), oldest first: the comments the stage counted, never an older one
// nor words someone put in a counted person's comment.
func matching(stage *lang.Stage, sr *model.StageRun, pr *model.PullRequest, counted func(string) bool) []Entry {
	var re *regexp.Regexp
	if stage.Pattern != "" {
		re, _ = regexp.Compile(stage.Pattern) // the loader compiled it already
	}
	var out []Entry
	for _, c := range pr.Comments {
		if c.Viewer || c.IsBot || c.Disowned() || !c.CreatedAt.After(sr.EnteredAt) || !counted(c.Author) || model.IsCommand(c.Body) || re != nil && !re.MatchString(c.Body) {
			continue
		}
		out = append(out, Entry{By: c.Author, Body: clip(c.Body)})
	}
	return last(out)
}

func last(entries []Entry) []Entry {
	if len(entries) > MaxEntries {
		return entries[len(entries)-MaxEntries:]
	}
	return entries
}

// clip keeps at most MaxText characters of s, cut at a character, saying it was cut.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= MaxText {
		return s
	}
	r := []rune(s)
	return string(r[:MaxText]) + " …"
}
