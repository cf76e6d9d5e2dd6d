package subject

import (
	"fmt"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kernel is the evaluator as a subject kind sees it.
type Kernel interface {
	// Scope is the subject of the evaluation and the facts it reads now.
	Scope() Scope
	// Logf adds a line to the evaluation's log.
	Logf(format string, args ...any)
	// Runs are the runs of the state, in order.
	Runs() []*model.Run
	// Pipeline is the pipeline of run (nil when the configuration has none).
	Pipeline(run *model.Run) *lang.Pipeline
	// MergedByRun reports whether run's own merge stage, or one of a child run, is the merge
	// the facts show done.
	MergedByRun(p *lang.Pipeline, run *model.Run) bool
	// Finish ends run with status, recording target and why in its history.
	Finish(run *model.Run, status model.RunStatus, target, why string)
}

// Kind is one kind of subject: what a run of it follows and what happens to it.
type Kind interface {
	// Name names the kind in messages.
	Name() string
	// RunPR is the pull request run's gates and merge read (nil when it has none).
	RunPR(s Scope, run *model.Run) *model.PullRequest
	// Authors lists the authors of the pull requests run would merge, beyond the subject's.
	Authors(s Scope, run *model.Run) []string
	// MayHaveAuthored reports whether login is, or may be, the author of a pull request run
	// would merge that is not the subject itself.
	MayHaveAuthored(s Scope, run *model.Run, login string) bool
	// Env completes run's expression environment.
	Env(s Scope, run *model.Run, env lang.Env)
	// Associate applies outputs.pr of an accepted report of stage of run.
	Associate(k Kernel, stage *lang.Stage, run *model.Run, outputs map[string]any)
	// Closed ends what a closed subject ends.
	Closed(k Kernel)
}

// The kinds, one value each.
var (
	PullRequest Kind = pullRequest{}
	OfIssue     Kind = issue{}
	MultiPR     Kind = multiPR{}
)

// KindOf is the kind of the runs of p on the subject of s; with p nil, the kind of the
// subject itself (a pull request or an issue).
func KindOf(s Scope, p *lang.Pipeline) Kind {
	switch {
	case s.Issue == nil:
		return PullRequest
	case p != nil && p.IsMultiPR():
		return MultiPR
	}
	return OfIssue
}

// pullRequest: the run's subject is its pull request.
type pullRequest struct{}

func (pullRequest) Name() string { return "pull request" }

func (pullRequest) RunPR(s Scope, run *model.Run) *model.PullRequest { return s.Facts.PR }

func (pullRequest) Authors(Scope, *model.Run) []string { return nil }

func (pullRequest) MayHaveAuthored(Scope, *model.Run, string) bool { return false }

func (pullRequest) Env(Scope, *model.Run, lang.Env) {}

// Associate: a pull request's run follows its own pull request; another named is ignored.
func (pullRequest) Associate(k Kernel, _ *lang.Stage, run *model.Run, outputs map[string]any) {
	v, ok := outputs["pr"]
	if !ok {
		return
	}
	pr := k.Scope().Facts.PR
	if n := model.ContextInt(v); n != pr.Number {
		k.Logf("run %s: outputs.pr %v ignored: a pull request's run follows its own pull request, #%d", run.ID, v, pr.Number)
	}
}

// issue: an issue's run, which follows the pull request an agent's report names
// (context.pr_number, context.prs) once it is associated.
type issue struct{}

func (issue) Name() string { return "issue" }

func (issue) RunPR(s Scope, run *model.Run) *model.PullRequest {
	ref, ok := RunPRRef(run) // N, or owner/name#N
	if !ok {
		return nil
	}
	return s.PrOf(ref)
}

func (k issue) Authors(s Scope, run *model.Run) []string {
	if pr := k.RunPR(s, run); pr != nil {
		return []string{pr.Author}
	}
	return nil
}

// MayHaveAuthored: the author of the run's pull request as read, or anyone while it was not
// read (its author is not known); no one while the run has none.
func (k issue) MayHaveAuthored(s Scope, run *model.Run, login string) bool {
	if _, has := RunPRRef(run); !has {
		return false
	}
	pr := k.RunPR(s, run)
	return pr == nil || strings.EqualFold(login, pr.Author)
}

// Env: github.pr is the run's pull request (null while it has none), github.issue the issue.
func (k issue) Env(s Scope, run *model.Run, env lang.Env) {
	gh, _ := env["github"].(map[string]any)
	if gh == nil {
		return
	}
	gh["pr"] = nil
	if pr := k.RunPR(s, run); pr != nil {
		f := *s.Issue.Base
		f.PR = pr
		gh["pr"] = model.FactsEnv(&f)["pr"]
	}
	gh["issue"] = model.IssueEnv(s.Issue.Issue)
}

// Associate: the pull request number the report names becomes the run's when it is an open
// pull request of the subject's repository whose head branch is in it (not a fork): an
// agent works with this repository's token, and no report can bring a stranger's pull
// request under the run's merge.
func (issue) Associate(k Kernel, _ *lang.Stage, run *model.Run, outputs map[string]any) {
	v, ok := outputs["pr"]
	if !ok {
		return
	}
	n := model.ContextInt(v)
	if str, isStr := v.(string); isStr {
		fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(str), "#"), "%d", &n)
	}
	if why := refuseNumber(k.Scope(), n); why != "" {
		msg := fmt.Sprintf("outputs.pr %v refused: %s", v, why)
		k.Logf("run %s: %s", run.ID, msg)
		run.Message = msg
		return
	}
	if run.Context == nil {
		run.Context = map[string]any{}
	}
	if model.RunPR(run) == 0 {
		run.Context["pr_number"] = n
	}
	prs := model.RunPRs(run)
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
	k.Logf("run %s: pull request #%d is associated with it (context.pr_number is #%d)", run.ID, n, model.RunPR(run))
}

// Closed: a closed issue leaves its runs to their pipelines.
func (issue) Closed(Kernel) {}

// refuseNumber says why pull request n cannot be associated with an issue's run, or "".
func refuseNumber(s Scope, n int) string {
	if n <= 0 {
		return "not a pull request number"
	}
	repo := s.Facts.Repo
	pr := s.Issue.Base.PRs[n]
	switch {
	case pr == nil:
		return fmt.Sprintf("#%d is not a pull request of %s (or it was not read)", n, repo)
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, repo):
		return fmt.Sprintf("the head branch of #%d is not a branch of %s (a fork's pull request is not associated)", n, repo)
	case pr.State != model.PROpen:
		return fmt.Sprintf("#%d is %s", n, pr.State)
	}
	return ""
}
