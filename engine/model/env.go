package model

import (
	"fmt"
	"math"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// FactsEnv returns the "github" root of an expression's Env, built from facts:
//
//	github.repo, github.default_branch, github.viewer
//	github.pr.number, title, state ("open" | "closed" | "merged"), draft, author,
//	          base, head (branch names), head_sha, labels (names),
//	          mergeable (true, false, or null while GitHub is still computing it),
//	          linked_issues (the issue numbers it closes when merged),
//	          linked_issues_from ("github": GitHub's links; "body": the closing keywords of
//	          its body, read by the action for a PR into another branch than the default
//	          one, where GitHub links none; "" when it links none),
//	          checks  [{name, kind, state, conclusion}],
//	          reviews [{author, state, commit_sha, submitted_at, can_push, is_bot}] (oldest first)
//
//	github.issue.number, title, state ("open" | "closed"), author, labels (names): the
//	          subject, when it is an issue (a `scope: issue` run; github.pr is then the
//	          run's pull request, context.pr_number, or null while it has none)
//
// github.pr is null when the facts hold no pull request. Numbers are ints; the Env
// holds no pointer into facts.
func FactsEnv(f *Facts) map[string]any {
	gh := map[string]any{"pr": nil}
	if f == nil {
		return gh
	}
	gh["repo"] = f.Repo
	gh["default_branch"] = f.DefaultBranch
	gh["viewer"] = f.Viewer
	if !f.Now.IsZero() {
		gh[lang.ClockKey] = f.Now
	}
	if f.Issue != nil {
		gh["issue"] = IssueEnv(f.Issue)
	}
	if f.PR == nil {
		return gh
	}
	pr := f.PR
	var mergeable any
	switch pr.Mergeable {
	case Mergeable:
		mergeable = true
	case Conflicting:
		mergeable = false
	}
	labels := make([]any, len(pr.Labels))
	for i, l := range pr.Labels {
		labels[i] = l
	}
	checks := make([]any, len(pr.Checks))
	for i, c := range pr.Checks {
		checks[i] = map[string]any{"name": c.Name, "kind": c.Kind, "state": c.State, "conclusion": c.Conclusion}
	}
	reviews := make([]any, len(pr.Reviews))
	for i, r := range pr.Reviews {
		reviews[i] = map[string]any{"author": r.Author, "state": r.State, "commit_sha": r.CommitSHA,
			"submitted_at": r.SubmittedAt, "can_push": r.CanPush, "is_bot": r.IsBot}
	}
	linked := make([]any, len(pr.LinkedIssues))
	for i, n := range pr.LinkedIssues {
		linked[i] = n
	}
	gh["pr"] = map[string]any{
		"number":             pr.Number,
		"title":              pr.Title,
		"state":              pr.State,
		"draft":              pr.Draft,
		"author":             pr.Author,
		"base":               pr.BaseRef,
		"head":               pr.HeadRef,
		"head_sha":           pr.HeadSHA,
		"mergeable":          mergeable,
		"labels":             labels,
		"linked_issues":      linked,
		"linked_issues_from": linkedFrom(pr),
		"checks":             checks,
		"reviews":            reviews,
		"body":               pr.Body,
		"co_authors":         anyList(pr.CoAuthors),
		"approvers":          anyList(f.Approvers(pr)),
	}
	return gh
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Approvers are the people whose approval of pr counts now (Approvals).
func (f *Facts) Approvers(pr *PullRequest) []string {
	approvers, _ := f.Approvals(pr, nil, "")
	return approvers
}

// Approvals are the people whose latest review approves pr's head and counts — write
// access; not its author, the author of another pull request of the run, someone who wrote
// commits of it, an agent or an app; given after the last change of base — with member set,
// only those it accepts (whom names them in notes); notes say why each other approval does
// not count.
func (f *Facts) Approvals(pr *PullRequest, member func(string) bool, whom string) (approvers, notes []string) {
	for _, r := range LatestReviews(pr.Reviews) {
		if r.State != ReviewApproved {
			continue
		}
		base := pr.Last(TimelineBaseChanged, "")
		switch {
		case member != nil && !member(r.Author):
			notes = append(notes, fmt.Sprintf("%s is not %s", r.Author, whom))
		case strings.EqualFold(r.Author, pr.Author):
			notes = append(notes, fmt.Sprintf("%s is the author", r.Author))
		case f.Authored(pr, r.Author):
			notes = append(notes, fmt.Sprintf("%s is the author of another pull request of the run", r.Author))
		case f.Contributed(pr, r.Author):
			notes = append(notes, fmt.Sprintf("%s wrote commits of it", r.Author))
		case f.IsAgent(r.Author):
			notes = append(notes, fmt.Sprintf("%s is an agent, not a person", r.Author))
		case r.IsBot:
			notes = append(notes, fmt.Sprintf("%s is an app, not a person", r.Author))
		case !r.CanPush:
			notes = append(notes, fmt.Sprintf("%s has no write access", r.Author))
		case pr.HeadSHA == "" || r.CommitSHA != pr.HeadSHA:
			notes = append(notes, fmt.Sprintf("%s's approval is on an older commit", r.Author))
		case !base.IsZero() && !r.SubmittedAt.After(base):
			// A new base is a new change to review, as GitHub's "dismiss stale approvals" has it.
			notes = append(notes, fmt.Sprintf("%s's approval predates the change of base to %s", r.Author, pr.BaseRef))
		default:
			approvers = append(approvers, r.Author)
		}
	}
	return approvers, notes
}

// ContextInt reads a number of the context as JSON gives it back (a float64) or as the
// engine wrote it.
func ContextInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case float64:
		if n > 0 && n < math.MaxInt32 && n == math.Trunc(n) {
			return int(n)
		}
	}
	return 0
}

// IssueEnv is github.issue: number, title, state, author, labels.
func IssueEnv(is *Issue) map[string]any {
	labels := make([]any, len(is.Labels))
	for i, l := range is.Labels {
		labels[i] = l
	}
	return map[string]any{"number": is.Number, "title": is.Title, "state": is.State, "author": is.Author, "labels": labels}
}

// subjectNumber is N of owner/name#N; 0 when s ends otherwise.
func subjectNumber(s string) int {
	i := strings.LastIndexByte(s, '#')
	var n int
	if _, err := fmt.Sscanf(s[i+1:], "%d", &n); err != nil || n < 0 {
		return 0
	}
	return n
}

// linkedFrom is github.pr.linked_issues_from: where pr's linked issues come from.
func linkedFrom(pr *PullRequest) string {
	switch {
	case len(pr.LinkedIssues) == 0:
		return ""
	case pr.LinkedFrom == LinkedFromBody:
		return LinkedFromBody
	}
	return "github"
}

// TriggerEnv is the `trigger` root as the facts tell it: the pull request in the shape
// of a pull_request event's payload (number, title, draft, state, user.login, head.ref,
// head.sha, base.ref, labels[].name).
func TriggerEnv(f *Facts) map[string]any {
	if f != nil && f.Issue != nil {
		return issueTriggerEnv(f.Issue)
	}
	if f == nil || f.PR == nil {
		return map[string]any{}
	}
	pr := f.PR
	labels := make([]any, len(pr.Labels))
	for i, l := range pr.Labels {
		labels[i] = map[string]any{"name": l}
	}
	return map[string]any{"pull_request": map[string]any{
		"number": pr.Number, "title": pr.Title, "draft": pr.Draft, "state": pr.State,
		"user":   map[string]any{"login": pr.Author},
		"head":   map[string]any{"ref": pr.HeadRef, "sha": pr.HeadSHA},
		"base":   map[string]any{"ref": pr.BaseRef},
		"labels": labels,
	}}
}

// issueTriggerEnv is the `trigger` root of an issue's run: the issue in the shape of an
// issues event's payload (trigger.issue.number, title, state, user.login, labels[].name).
func issueTriggerEnv(is *Issue) map[string]any {
	labels := make([]any, len(is.Labels))
	for i, l := range is.Labels {
		labels[i] = map[string]any{"name": l}
	}
	return map[string]any{"issue": map[string]any{
		"number": is.Number, "title": is.Title, "state": is.State,
		"user": map[string]any{"login": is.Author}, "labels": labels,
	}}
}
