package core

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// PRRef names a pull request: Repo is "owner/name" ("" for the subject's own repository).
type PRRef struct {
	Repo   string
	Number int
}

// String is "owner/name#N", or "#N" without a repository.
func (r PRRef) String() string {
	return r.Repo + "#" + strconv.Itoa(r.Number)
}

// Key is how Facts.Others keys a pull request of another repository: "owner/name#N" in
// lower case (GitHub compares owner and repository names without regard to case).
func (r PRRef) Key() string { return strings.ToLower(r.String()) }

// ParsePRRef reads a pull request reference as a context or a template gives it: a number,
// "N", "#N" or "owner/name#N". It reports false for anything else.
func ParsePRRef(v any) (PRRef, bool) {
	if n := ContextInt(v); n > 0 {
		return PRRef{Number: n}, true
	}
	s, ok := v.(string)
	if !ok {
		return PRRef{}, false
	}
	s = strings.TrimSpace(s)
	repo, num := "", s
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		repo, num = s[:i], s[i+1:]
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || n > 1<<31-1 {
		return PRRef{}, false
	}
	if repo != "" && !ValidRepoName(repo) {
		return PRRef{}, false
	}
	return PRRef{Repo: repo, Number: n}, true
}

// ValidRepoName reports whether s is "owner/name" as GitHub spells them.
func ValidRepoName(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || len(s) > 140 || strings.Trim(owner, ".") == "" || strings.Trim(name, ".") == "" {
		return false
	}
	for _, c := range owner + name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Own reports whether r names a pull request of repo (the subject's repository).
func (r PRRef) Own(repo string) bool {
	return r.Repo == "" || strings.EqualFold(r.Repo, repo)
}

// RunPRRefs are the pull requests of run's context.prs, in order, as references; a number
// names a pull request of repo.
func RunPRRefs(run *Run, repo string) []PRRef {
	if run == nil {
		return nil
	}
	list, _ := run.Context["prs"].([]any)
	var out []PRRef
	for _, v := range list {
		if r, ok := ParsePRRef(v); ok {
			if r.Repo == "" {
				r.Repo = repo
			}
			out = append(out, r)
		}
	}
	return out
}

// PrOf is the pull request ref names in the facts read (nil when it was not read).
func (e *Eval) PrOf(ref PRRef) *PullRequest {
	base := e.Facts
	if e.Issue != nil {
		base = e.Issue.Base
	}
	if ref.Own(base.Repo) {
		if e.Issue == nil {
			if base.PR != nil && base.PR.Number == ref.Number {
				return base.PR
			}
			return nil
		}
		return base.PRs[ref.Number]
	}
	return base.Others[ref.Key()]
}

// RunPRRef is run's context.pr_number as a reference, and whether it has one.
func RunPRRef(run *Run) (PRRef, bool) {
	if run == nil {
		return PRRef{}, false
	}
	return ParsePRRef(run.Context["pr_number"])
}

// OnPR makes pr the PR of e.facts (and its repository the facts' repository) until the
// returned function is called.
func (e *Eval) OnPR(pr *PullRequest, ref PRRef) func() {
	old := e.Facts
	base := e.Facts
	if e.Issue != nil {
		base = e.Issue.Base
	}
	f := *base
	f.PR = pr
	if !ref.Own(base.Repo) {
		f.Repo = ref.Repo
	}
	e.Facts = &f
	return func() { e.Facts = old }
}

// AgentRepo is the repository an agent stage's pull request will be in (`config.repo`), ""
// for the subject's. It must be written literally: a templated repo could be chosen by what
// an issue or a report says, and so could the repository whose pull request the run merges.
func AgentRepo(stage *lang.Stage) (repo string, templated bool) {
	if stage == nil {
		return "", false
	}
	for _, kv := range stage.Values {
		if kv.Key == "repo" {
			return strings.TrimSpace(kv.Value.Scalar), kv.Value.Template != nil
		}
	}
	return "", false
}

// RefuseRef says why pull request ref cannot be associated with a multi-PR run, or "".
func (e *Eval) RefuseRef(ref PRRef) string {
	pr := e.PrOf(ref)
	switch {
	case pr == nil:
		return fmt.Sprintf("%s is not a pull request (or it was not read)", ref)
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, ref.Repo):
		return fmt.Sprintf("the head branch of %s is not a branch of %s (a fork's pull request is not associated)", ref, ref.Repo)
	case pr.State != PROpen:
		return fmt.Sprintf("%s is %s", ref, pr.State)
	}
	return ""
}

// RunHasPR reports whether ref is one of run's pull requests (context.prs): merge_pr merges
// nothing else, whatever a template renders.
func (e *Eval) RunHasPR(run *Run, ref PRRef) bool {
	own := e.Facts.Repo
	if e.Issue != nil {
		own = e.Issue.Base.Repo
	}
	if ref.Repo == "" {
		ref.Repo = own
	}
	for _, have := range RunPRRefs(run, own) {
		if have.Key() == ref.Key() {
			return true
		}
	}
	return false
}

// MergeBranches are the merge_pr branches of parallel stage par.
func MergeBranches(par *lang.Stage) []*lang.Stage {
	var out []*lang.Stage
	for _, b := range par.Branches {
		if b.Type == lang.StageAction && b.Action == lang.ActionMergePR {
			out = append(out, b)
		}
	}
	return out
}

// GuardTarget is the stage the guard looks for a path to when merge is a branch: its
// parallel stage.
func GuardTarget(p *lang.Pipeline, merge *lang.Stage) *lang.Stage {
	if p.Stage(merge.ID) != nil {
		return merge
	}
	for _, s := range p.Stages {
		if BranchOf(s, merge.ID) != nil {
			return s
		}
	}
	return merge
}

// OtherRepo is the repository of e.facts.PR when it is not the subject's (a pull request
// of another repository put in place by OnPR), or "".
func (e *Eval) OtherRepo() string {
	if e.Issue == nil || strings.EqualFold(e.Facts.Repo, e.Issue.Base.Repo) {
		return ""
	}
	return e.Facts.Repo
}

// DeadlineFollow is when a multi-PR run waiting on the facts of a pull request of another
// repository reads them again: events there do not reach this repository's workflow, so
// the sweep comes back for the run every FollowInterval (an event on the issue moves it
// sooner).
const DeadlineFollow = "follow_prs"

// FollowInterval is how often the sweep reads again the pull requests of other
// repositories a waiting multi-PR run depends on.
const FollowInterval = 15 * time.Minute

// FollowDue: the run is evaluated on the facts just read; nothing else to do.
func (e *Eval) FollowDue(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool {
	e.Logf("run %s: the pull requests of other repositories are read again (%s)", run.ID, stage.ID)
	return false
}

// FollowOthers arms DeadlineFollow on the run's current stage when a multi-PR run waits at
// stage, a gate or a merge, and has a pull request in another repository.
func (e *Eval) FollowOthers(p *lang.Pipeline, run *Run) {
	if e.Issue == nil || !p.IsMultiPR() || run.Status != RunWaiting {
		return
	}
	sr := run.Stages[run.Stage]
	stage := p.Stage(run.Stage)
	if sr == nil || stage == nil {
		return
	}
	waitsOnPRs := stage.Type == lang.StageGate || (stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR) || len(MergeBranches(stage)) > 0
	if !waitsOnPRs {
		return
	}
	other := false
	for _, ref := range RunPRRefs(run, e.Issue.Base.Repo) {
		other = other || !ref.Own(e.Issue.Base.Repo)
	}
	if !other {
		return
	}
	for _, d := range sr.Deadlines {
		if d.Kind == DeadlineFollow {
			return
		}
	}
	sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineFollow, At: e.Now.Add(FollowInterval)})
}

// NewRefAssociations returns, for each run of after, the pull requests its context.prs
// names as "owner/name#N" (multi-PR runs) that before's run of the same id did not: what
// the caller records on those pull requests' states (Followers; for a pull request of
// another repository, with the issue's repository in Follower.Repo).
func NewRefAssociations(before, after *State) map[PRRef][]Follower {
	had := map[string]map[string]bool{}
	if before != nil {
		for _, r := range before.Runs {
			had[r.ID] = map[string]bool{}
			for _, ref := range namedRefs(r) {
				had[r.ID][ref.Key()] = true
			}
		}
	}
	out := map[PRRef][]Follower{}
	for _, r := range after.Runs {
		for _, ref := range namedRefs(r) {
			if !had[r.ID][ref.Key()] {
				k := PRRef{Repo: strings.ToLower(ref.Repo), Number: ref.Number}
				out[k] = append(out[k], Follower{Issue: subjectNumber(r.Subject), Run: r.ID})
			}
		}
	}
	return out
}

// namedRefs are the entries of run's context.prs written "owner/name#N".
func namedRefs(run *Run) []PRRef {
	var out []PRRef
	for _, ref := range RunPRRefs(run, "") {
		if ref.Repo != "" {
			out = append(out, ref)
		}
	}
	return out
}

// MayHaveAuthoredRunPRs reports whether login is, or may be, the author of any pull request
// of a multi-PR run (one not read: its author is not known): a human stage's approval is
// for all of them, so none of their authors approves it.
func (e *Eval) MayHaveAuthoredRunPRs(run *Run, login string) bool {
	if e.Issue == nil {
		return false
	}
	p := e.Cfg.PipelineFor(run)
	if !p.IsMultiPR() {
		return false
	}
	for _, ref := range RunPRRefs(run, e.Issue.Base.Repo) {
		pr := e.PrOf(ref)
		if pr == nil || strings.EqualFold(login, pr.Author) {
			return true
		}
	}
	return false
}
