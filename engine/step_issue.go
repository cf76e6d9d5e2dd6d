package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Runs of `scope: issue` pipelines. Their subject is an issue (Facts.Issue): they start on
// issues.* events, keep their state on the issue, and post their comments (an agent's
// comment dispatch, chat-op replies, comment actions) there. An agent's report with
// outputs.pr associates a pull request with the run (associate): context.pr_number is set
// when unset and context.prs gains it. From then on the run follows that pull request:
//
//   - its gates and its merge_pr stage evaluate against the run's pull request
//     (context.pr_number), as read in Facts.PRs — a gate reads that PR's reviews, checks and
//     labels, not the issue's; a gate or a merge while the run has no pull request waits,
//     saying "no pull request yet";
//   - the merge guard runs on that pull request's facts (its head, its gates), exactly as in
//     a pull request's own run, and merge_pr merges that pull request and no other;
//   - only a pull request of this repository whose head branch is in this repository (not a
//     fork) and that is open can be associated: an agent works with this repository's token,
//     and a report naming someone else's fork is refused, so that no report can bring a
//     stranger's pull request under the run's merge. What the gates require still holds on
//     the associated pull request's own facts.
//
// Inside the engine the issue is seen as the subject through a PullRequest value that
// carries only what an issue has (number, title, state, author, labels, comments, the
// action's posted markers, timeline): the code that speaks to the subject (comments,
// dispatches, chat-ops, labels) is the same for both. What needs a pull request — gates,
// the guard, merging — runs on the run's own pull request (onRunPR), never on that view.

// issueSubject is what an evaluation of an issue keeps: the issue, the facts as read and the
// facts with the issue's view as their PR.
type issueSubject struct {
	issue *Issue
	base  *Facts
	view  *Facts
}

// NoPullRequestYet is what a gate or a merge of an issue run says while the run has no pull
// request.
const NoPullRequestYet = "no pull request yet: the run has no pull request to read (an agent's report with outputs.pr associates one)"

// issueView sets up the evaluation of an issue subject: e.facts becomes the facts with the
// issue as their PR (see above).
func (e *eval) issueView() {
	f := e.facts
	if f == nil || f.Issue == nil || f.PR != nil {
		return
	}
	is := f.Issue
	st := PROpen
	if is.State != IssueOpen {
		st = PRClosed
	}
	v := *f
	v.PR = &PullRequest{Number: is.Number, Title: is.Title, State: st, Author: is.Author,
		Labels: is.Labels, CreatedAt: is.CreatedAt, Timeline: is.Timeline, Comments: is.Comments, Posted: is.Posted}
	e.issue = &issueSubject{issue: is, base: f, view: &v}
	e.facts = &v
}

// scopeFits reports whether pipeline p runs on the subject evaluated: pipelines on issues
// (OnIssues) on issues, the others on pull requests.
func (e *eval) scopeFits(p *lang.Pipeline) bool {
	return (e.issue != nil) == p.OnIssues()
}

// RunPR is the run's pull request, context.pr_number; 0 when it has none.
func RunPR(run *Run) int {
	if run == nil {
		return 0
	}
	return contextInt(run.Context["pr_number"])
}

// RunPRs are the pull requests associated with the run (context.prs), in order.
func RunPRs(run *Run) []int {
	if run == nil {
		return nil
	}
	list, _ := run.Context["prs"].([]any)
	var out []int
	for _, v := range list {
		if n := contextInt(v); n > 0 {
			out = append(out, n)
		}
	}
	return out
}

// contextInt reads a number of the context as JSON gives it back (a float64) or as the
// engine wrote it.
func contextInt(v any) int {
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

// runPR is the pull request run's gates and merge read: the subject itself in a pull
// request's run; in an issue's run, its context.pr_number as read (nil when it has none, or
// when it was not read).
func (e *eval) runPR(run *Run) *PullRequest {
	if e.issue == nil {
		return e.facts.PR
	}
	ref, ok := runPRRef(run) // step_multipr.go: N, or owner/name#N
	if !ok {
		return nil
	}
	return e.prOf(ref)
}

// onRunPR makes pr the PR of e.facts until the returned function is called.
func (e *eval) onRunPR(pr *PullRequest) func() {
	old := e.facts
	f := *e.issue.base
	f.PR = pr
	e.facts = &f
	return func() { e.facts = old }
}

// issueStage evaluates the stages of an issue's run that read its pull request: gates and
// merge_pr. done is false for every other stage, and in a pull request's run.
func (e *eval) issueStage(p *lang.Pipeline, run *Run, stage *lang.Stage) (moved, done bool) {
	if e.issue == nil {
		return false, false
	}
	isMerge := stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR
	if stage.Type != lang.StageGate && !isMerge {
		return false, false
	}
	if isMerge {
		return e.issueMerge(p, run, stage), true // step_multipr.go
	}
	pr := e.runPR(run)
	if pr == nil {
		why := NoPullRequestYet
		if ref, ok := runPRRef(run); ok {
			why = fmt.Sprintf("pull request %s was not read", ref)
		} else if strings.HasPrefix(run.Message, "outputs.pr ") {
			why += "; " + run.Message // a refused association says why
		}
		sr := run.Stages[stage.ID]
		sr.Results = []GateResult{{Check: "pull_request", Status: GatePending, Message: why, Who: "the agent that opens the pull request"}}
		sr.Status = StageWaiting
		run.Status = RunWaiting
		return false, true
	}
	ref, _ := runPRRef(run)
	restore := e.onPR(pr, ref)
	defer restore()
	return e.gate(p, run, stage), true
}

// intentOnRunPR puts the run's pull request in place while an intent of a merge of an
// issue's run is reconciled; nil when there is nothing to put in place.
func (e *eval) intentOnRunPR(run *Run, it Intent) func() {
	if e.issue == nil || it.Kind != EffectMerge {
		return nil
	}
	if p := e.cfg.PipelineFor(run); p != nil { // step_multipr.go: a merge with pr_number
		if stage := stageOrBranch(p, it.Stage); stage != nil && stage.Config.PR != nil {
			if pr, ref, _ := e.mergeTarget(p, run, stage); pr != nil {
				return e.onPR(pr, ref)
			}
			return nil
		}
	}
	pr := e.runPR(run)
	if pr == nil {
		return nil
	}
	return e.onRunPR(pr)
}

// issueTriggerSince is triggerStateSince for an issue: issues.opened holds since the issue
// was opened, issues.reopened since it was last reopened, issues.labeled with labels since
// the last of them was added; other issue events are happenings.
func (e *eval) issueTriggerSince(p *lang.Pipeline) (time.Time, bool) {
	is, t := e.issue.issue, p.Trigger
	view := e.issue.view.PR
	switch t.Event {
	case "issues.opened":
		return is.CreatedAt, true
	case "issues.reopened":
		return view.Last(TimelineReopened, ""), true
	case "issues.labeled":
		if len(t.Labels) == 0 {
			return time.Time{}, false
		}
		var since time.Time
		for _, l := range t.Labels {
			if !is.HasLabel(l) {
				return time.Time{}, true
			}
			at := view.Last(TimelineLabeled, l)
			if at.IsZero() {
				at = is.CreatedAt
			}
			if at.After(since) {
				since = at
			}
		}
		return since, true
	}
	return time.Time{}, false
}

// associate applies the outputs.pr of an accepted report of run: the pull request it names
// becomes the run's (see above). A pull request run ignores it (it has its own).
func (e *eval) associate(run *Run, outputs map[string]any) {
	v, ok := outputs["pr"]
	if !ok {
		return
	}
	if e.issue == nil {
		if n := contextInt(v); n != e.facts.PR.Number {
			e.logf("run %s: outputs.pr %v ignored: a pull request's run follows its own pull request, #%d", run.ID, v, e.facts.PR.Number)
		}
		return
	}
	n := contextInt(v)
	if s, isStr := v.(string); isStr {
		fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(s), "#"), "%d", &n)
	}
	if why := e.refuseAssociation(n); why != "" {
		msg := fmt.Sprintf("outputs.pr %v refused: %s", v, why)
		e.logf("run %s: %s", run.ID, msg)
		run.Message = msg
		return
	}
	if run.Context == nil {
		run.Context = map[string]any{}
	}
	if RunPR(run) == 0 {
		run.Context["pr_number"] = n
	}
	prs := RunPRs(run)
	for _, have := range prs {
		if have == n {
			return
		}
	}
	prs = append(prs, n)
	sort.Ints(prs)
	list := make([]any, len(prs))
	for i, x := range prs {
		list[i] = x
	}
	run.Context["prs"] = list
	e.logf("run %s: pull request #%d is associated with it (context.pr_number is #%d)", run.ID, n, RunPR(run))
}

// refuseAssociation says why pull request n cannot be associated with an issue's run, or "".
func (e *eval) refuseAssociation(n int) string {
	if n <= 0 {
		return "not a pull request number"
	}
	pr := e.issue.base.PRs[n]
	switch {
	case pr == nil:
		return fmt.Sprintf("#%d is not a pull request of %s (or it was not read)", n, e.facts.Repo)
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, e.facts.Repo):
		return fmt.Sprintf("the head branch of #%d is not a branch of %s (a fork's pull request is not associated)", n, e.facts.Repo)
	case pr.State != PROpen:
		return fmt.Sprintf("#%d is %s", n, pr.State)
	}
	return ""
}

// issueEnv completes an issue run's env: github.pr is the run's pull request (null while it
// has none), github.issue the issue.
func (e *eval) issueEnv(run *Run, env lang.Env) {
	if e.issue == nil {
		return
	}
	gh, _ := env["github"].(map[string]any)
	if gh == nil {
		return
	}
	gh["pr"] = nil
	if pr := e.runPR(run); pr != nil {
		f := *e.issue.base
		f.PR = pr
		gh["pr"] = FactsEnv(&f)["pr"]
	}
	gh["issue"] = issueEnv(e.issue.issue)
}

// issueEnv is github.issue: number, title, state, author, labels.
func issueEnv(is *Issue) map[string]any {
	labels := make([]any, len(is.Labels))
	for i, l := range is.Labels {
		labels[i] = l
	}
	return map[string]any{"number": is.Number, "title": is.Title, "state": is.State, "author": is.Author, "labels": labels}
}

// commentTarget sets where a comment action with `target:` posts: "pr" is the subject in
// a pull request's run, and the run's pull request in an issue's run; "issue" is the
// subject in an issue's run.
func (e *eval) commentTarget(run *Run, target string, eff *Effect) string {
	switch {
	case target == "issue" && e.issue != nil:
		eff.Number = e.issue.issue.Number
	case target == "pr" && e.issue == nil:
	case target == "pr":
		pr := e.runPR(run)
		if pr == nil {
			return NoPullRequestYet
		}
		eff.Number = pr.Number
	case target == "issue":
		// Only a sub-pipeline run on a pull request gets here: validate refuses it elsewhere.
		return `comment target "issue" in a pull request's run: there is no issue to comment on; use "pr"`
	default:
		return fmt.Sprintf(`comment target %q: a comment goes to "pr" or, in an issue's run, "issue"`, target)
	}
	return ""
}

// Follower is a run of an issue that follows a pull request (State.Followers).
type Follower struct {
	Issue int    `json:"issue"`
	Run   string `json:"run"`
	// Repo is the issue's repository when it is not the pull request's: a multi-PR run of
	// another repository follows it (step_multipr.go).
	Repo string `json:"repo,omitempty"`
}

// AddFollower adds f to st.Followers unless it is there; it reports whether it added it.
func AddFollower(st *State, f Follower) bool {
	for _, have := range st.Followers {
		if have == f {
			return false
		}
	}
	st.Followers = append(st.Followers, f)
	return true
}

// NewAssociations returns, for each run of after, the pull requests its context.prs holds
// and before's run of the same id did not: what the caller records on those pull requests'
// states (Followers).
func NewAssociations(before, after *State) map[int][]Follower {
	had := map[string]map[int]bool{}
	if before != nil {
		for _, r := range before.Runs {
			had[r.ID] = map[int]bool{}
			for _, n := range RunPRs(r) {
				had[r.ID][n] = true
			}
		}
	}
	out := map[int][]Follower{}
	for _, r := range after.Runs {
		for _, n := range RunPRs(r) {
			if !had[r.ID][n] {
				out[n] = append(out[n], Follower{Issue: subjectNumber(r.Subject), Run: r.ID})
			}
		}
	}
	return out
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

// headOf is the head of run's pull request: what an approval is given on. "" in an issue's
// run without a pull request.
func (e *eval) headOf(run *Run) string {
	if pr := e.runPR(run); pr != nil {
		return pr.HeadSHA
	}
	return ""
}

// mayHaveAuthoredRunPR reports whether login is, or may be, the author of the pull request
// of an issue's run: its author as read, or anyone when the run's pull request was not read
// (its author is not known). False in a pull request's run (its author is the subject's)
// and while the issue's run has no pull request.
func (e *eval) mayHaveAuthoredRunPR(run *Run, login string) bool {
	if e.mayHaveAuthoredRunPRs(run, login) { // step_multipr.go: any of a multi-PR run's
		return true
	}
	if _, has := runPRRef(run); e.issue == nil || !has {
		return false
	}
	pr := e.runPR(run)
	return pr == nil || strings.EqualFold(login, pr.Author)
}

// reviewsOf are the reviews of run's pull request (none while an issue's run has none).
func (e *eval) reviewsOf(run *Run) []Review {
	if pr := e.runPR(run); pr != nil {
		return pr.Reviews
	}
	return nil
}

// subjectView is f with the issue as its PR, as an evaluation of an issue sees it.
func subjectView(f *Facts) *Facts {
	e := &eval{facts: f}
	e.issueView()
	return e.facts
}

// runPRIn is run's pull request in facts f as PeopleNeeded reads them (f.PR is the subject:
// in an issue's evaluation, its view); an empty pull request when it has none.
func runPRIn(f *Facts, run *Run) *PullRequest {
	if f.Issue == nil {
		return f.PR
	}
	if ref, ok := runPRRef(run); ok { // N, or owner/name#N (step_multipr.go)
		e := &eval{facts: f, issue: &issueSubject{base: f}}
		if pr := e.prOf(ref); pr != nil {
			return pr
		}
	}
	return &PullRequest{}
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
