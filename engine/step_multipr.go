package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Multi-PR runs (`scope: multi-pr`). Their subject is an issue, as that of an issue's run
// (step_issue.go): they start on issues.* events and keep their state on the issue. Their
// pull requests may live in other repositories:
//
//   - A pull request is named by a reference "owner/name#N" (PRRef). In a multi-PR run every
//     entry of context.prs is such a string, in the order the pull requests were associated
//     — so `{{ context.prs[0] }}` renders "acme/api#12", which merge_pr's `pr_number` and a
//     gate's `pr` take as written. A bare number, or "#N", names a pull request of the
//     subject's own repository. context.pr_number is the first pull request associated.
//   - An agent stage's `config.repo` names the repository its pull request will be in: the
//     report's outputs.pr N then means pull request N of that repository. Without it, N is a
//     pull request of the subject's repository. The association is refused, as in an
//     issue's run, when the pull request's head branch is not a branch of its own
//     repository (a fork), or the pull request is not open.
//   - The facts of every associated pull request are read at each invocation, those of other
//     repositories in Facts.Others (keyed by PRRef.Key), in the same query as the issue.
//   - A gate's `pr` (ci_status) reads the pull request it names, or, with `pr: all`, every
//     pull request of context.prs (all must pass; one failing fails it).
//   - merge_pr with `pr_number` merges that pull request; the effect names its repository
//     (Effect.Repo). The merge guard runs on that pull request's facts, as for the run's own.
//   - A parallel stage whose branches merge (merge-all) merges all of its pull requests or
//     none: before any merge it checks that every one is open (or merged already), not a
//     draft, mergeable, and that the guard holds for it; if one is not, it merges none and
//     escalates saying which and why. A merge GitHub refuses once another went in cannot be
//     undone: the run escalates saying which pull requests are merged and which are not.

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
	if n := contextInt(v); n > 0 {
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
	if repo != "" && !validRepoName(repo) {
		return PRRef{}, false
	}
	return PRRef{Repo: repo, Number: n}, true
}

// validRepoName reports whether s is "owner/name" as GitHub spells them.
func validRepoName(s string) bool {
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

// own reports whether r names a pull request of repo (the subject's repository).
func (r PRRef) own(repo string) bool {
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

// prOf is the pull request ref names in the facts read (nil when it was not read).
func (e *eval) prOf(ref PRRef) *PullRequest {
	base := e.facts
	if e.issue != nil {
		base = e.issue.base
	}
	if ref.own(base.Repo) {
		if e.issue == nil {
			if base.PR != nil && base.PR.Number == ref.Number {
				return base.PR
			}
			return nil
		}
		return base.PRs[ref.Number]
	}
	return base.Others[ref.Key()]
}

// runPRRef is run's context.pr_number as a reference, and whether it has one.
func runPRRef(run *Run) (PRRef, bool) {
	if run == nil {
		return PRRef{}, false
	}
	return ParsePRRef(run.Context["pr_number"])
}

// onPR makes pr the PR of e.facts (and its repository the facts' repository) until the
// returned function is called.
func (e *eval) onPR(pr *PullRequest, ref PRRef) func() {
	old := e.facts
	base := e.facts
	if e.issue != nil {
		base = e.issue.base
	}
	f := *base
	f.PR = pr
	if !ref.own(base.Repo) {
		f.Repo = ref.Repo
	}
	e.facts = &f
	return func() { e.facts = old }
}

// agentRepo is the repository an agent stage's pull request will be in (`config.repo`), ""
// for the subject's. It must be written literally: a templated repo could be chosen by what
// an issue or a report says, and so could the repository whose pull request the run merges.
func agentRepo(stage *lang.Stage) (repo string, templated bool) {
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

// associateMulti applies outputs.pr of an accepted report of stage in a multi-PR run: the
// pull request is that of the stage's `config.repo` (or the subject's repository).
func (e *eval) associateMulti(p *lang.Pipeline, run *Run, stage *lang.Stage, v any) {
	own := e.issue.base.Repo
	want, templated := agentRepo(stage)
	if want == "" {
		want = own
	}
	ref, ok := ParsePRRef(v)
	if ok && ref.Repo == "" {
		ref.Repo = want
	}
	why := ""
	switch {
	case !ok:
		why = "not a pull request number or owner/name#N"
	case templated:
		why = fmt.Sprintf("config.repo of stage %q is a template; a repository whose pull request a run merges is written literally", stage.ID)
	case !validRepoName(ref.Repo) || !validRepoName(want):
		why = fmt.Sprintf("%q is not owner/name", want)
	case !strings.EqualFold(want, ref.Repo):
		why = fmt.Sprintf("stage %q opens its pull request in %s, not %s", stage.ID, want, ref.Repo)
	default:
		why = e.refuseRef(ref)
	}
	if why != "" {
		msg := fmt.Sprintf("outputs.pr %v refused: %s", v, why)
		e.logf("run %s: %s", run.ID, msg)
		run.Message = msg
		return
	}
	if run.Context == nil {
		run.Context = map[string]any{}
	}
	name := ref.String()
	if _, has := runPRRef(run); !has {
		run.Context["pr_number"] = name
	}
	for _, have := range RunPRRefs(run, own) {
		if have.Key() == ref.Key() {
			return
		}
	}
	list, _ := run.Context["prs"].([]any)
	run.Context["prs"] = append(append([]any(nil), list...), name)
	e.logf("run %s: pull request %s is associated with it (context.prs[%d])", run.ID, name, len(list))
}

// refuseRef says why pull request ref cannot be associated with a multi-PR run, or "".
func (e *eval) refuseRef(ref PRRef) string {
	pr := e.prOf(ref)
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

// mergeTarget is the pull request merge_pr stage of run merges: its `pr_number` rendered,
// or the run's own. why says why there is none to merge.
func (e *eval) mergeTarget(p *lang.Pipeline, run *Run, stage *lang.Stage) (pr *PullRequest, ref PRRef, why string) {
	if stage.Config.PR == nil {
		if r, ok := runPRRef(run); ok {
			ref = r
		}
		return e.runPR(run), ref, ""
	}
	text, err := stage.Config.PR.Render(e.env(p, run))
	if err != nil {
		return nil, ref, fmt.Sprintf("pr_number of stage %q does not render: %v", stage.ID, err)
	}
	ref, ok := ParsePRRef(text)
	if !ok {
		if strings.TrimSpace(text) == "" || text == "<nil>" {
			return nil, ref, NoPullRequestYet
		}
		return nil, ref, fmt.Sprintf("pr_number of stage %q is %q, not a pull request (N or owner/name#N)", stage.ID, text)
	}
	if !e.runHasPR(run, ref) {
		return nil, ref, fmt.Sprintf("%s is not a pull request of the run (context.prs); it is not merged", ref)
	}
	if pr = e.prOf(ref); pr == nil {
		return nil, ref, fmt.Sprintf("pull request %s was not read", ref)
	}
	return pr, ref, ""
}

// runHasPR reports whether ref is one of run's pull requests (context.prs): merge_pr merges
// nothing else, whatever a template renders.
func (e *eval) runHasPR(run *Run, ref PRRef) bool {
	own := e.facts.Repo
	if e.issue != nil {
		own = e.issue.base.Repo
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

// issueMerge evaluates a merge_pr stage (or branch) of an issue's or a multi-PR run.
func (e *eval) issueMerge(p *lang.Pipeline, run *Run, stage *lang.Stage) bool {
	pr, ref, why := e.mergeTarget(p, run, stage)
	if pr == nil {
		if why == "" {
			why = NoPullRequestYet
			if strings.HasPrefix(run.Message, "outputs.pr ") {
				why += "; " + run.Message
			}
		}
		return e.holdAction(run, stage, why, "the agent that opens the pull request")
	}
	restore := e.onPR(pr, ref)
	defer restore()
	return e.action(p, run, stage)
}

// mergeBranches are the merge_pr branches of parallel stage par.
func mergeBranches(par *lang.Stage) []*lang.Stage {
	var out []*lang.Stage
	for _, b := range par.Branches {
		if b.Type == lang.StageAction && b.Action == lang.ActionMergePR {
			out = append(out, b)
		}
	}
	return out
}

// mergeAll checks, before a parallel stage with merge branches merges anything, that every
// one of its pull requests can be merged now. stop: the run does not go on to the branches
// (it waits, or escalated); moved: it escalated.
func (e *eval) mergeAll(p *lang.Pipeline, run *Run, par *lang.Stage) (stop, moved bool) {
	merges := mergeBranches(par)
	if len(merges) == 0 || e.issue == nil {
		return false, false
	}
	var merged, notMerged, blocked, waiting, inFlight []string
	for _, b := range merges {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Status == StageSkipped {
			continue
		}
		pr, ref, why := e.mergeTarget(p, run, b)
		name := ref.String()
		if ref.Number == 0 {
			name = "pr_number " + b.Config.PR.Src
		}
		if pr == nil {
			notMerged = append(notMerged, b.ID)
			blocked = append(blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, why))
			continue
		}
		if pr.State == PRMerged {
			merged = append(merged, fmt.Sprintf("%s (branch %s)", name, b.ID))
			continue
		}
		notMerged = append(notMerged, fmt.Sprintf("%s (branch %s)", name, b.ID))
		if bsr.Status == StageActing {
			// Its merge was asked for and may be going in: what is merged is not known
			// before its outcome is. What its facts show still holds the others back.
			inFlight = append(inFlight, name)
		}
		if bsr.Status == StageFailed {
			blocked = append(blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, bsr.Message))
			continue
		}
		restore := e.onPR(pr, ref)
		plan := e.guard(p, run, b)
		restore()
		switch {
		case pr.State == PRClosed:
			blocked = append(blocked, fmt.Sprintf("%s (branch %s): it was closed without merging", name, b.ID))
		case pr.Draft:
			blocked = append(blocked, fmt.Sprintf("%s (branch %s): it is a draft", name, b.ID))
		case pr.Mergeable == Conflicting:
			blocked = append(blocked, fmt.Sprintf("%s (branch %s): it has conflicts with its base branch", name, b.ID))
		case plan.back != nil || plan.why != "":
			w := plan.why
			if plan.back != nil {
				w = fmt.Sprintf("the merge guard does not hold: %s", plan.why)
			}
			blocked = append(blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, w))
		case pr.Mergeable != Mergeable || pr.MergeState == mergeStateUnknown:
			waiting = append(waiting, fmt.Sprintf("%s: GitHub has not computed whether it can be merged", name))
		}
	}
	sr := run.Stages[par.ID]
	switch {
	case len(blocked) > 0 && len(inFlight) > 0:
		// No other merge is asked for; the outcome of those in flight decides what to say.
		sr.Status = StageWaiting
		sr.Results = []GateResult{{Check: "mergeable", Status: GatePending, Who: "GitHub",
			Message: fmt.Sprintf("the merge of %s is in flight; %s", strings.Join(inFlight, ", "), strings.Join(blocked, "; "))}}
		run.Status = RunWaiting
		return true, false
	case len(blocked) > 0 && len(merged) == 0:
		why := fmt.Sprintf("stage %q merges all of its pull requests or none; none is merged: %s", par.ID, strings.Join(blocked, "; "))
		e.cancelBranches(run, par, "none is merged")
		sr.Message = why
		e.escalate(run, why)
		return true, true
	case len(blocked) > 0:
		why := fmt.Sprintf("stage %q merges all of its pull requests or none, and a merge went in before another failed: merged %s; not merged %s: %s",
			par.ID, strings.Join(merged, ", "), strings.Join(notMerged, ", "), strings.Join(blocked, "; "))
		e.cancelBranches(run, par, "the merges are incomplete")
		sr.Message = why
		e.escalate(run, why)
		return true, true
	case len(waiting) > 0 && len(merged) == 0:
		if e.waitMergeability(run, sr, fmt.Sprintf("every pull request of stage %q", par.ID)) { // step_merge_poll.go
			return true, true
		}
		sr.Status = StageWaiting
		sr.Results = []GateResult{{Check: "mergeable", Status: GatePending, Message: strings.Join(waiting, "; "), Who: "GitHub"}}
		run.Status = RunWaiting
		return true, false
	}
	return false, false
}

// unsupportedMergeBranch names what a parallel branch that merges lacks: a merge branch merges
// the pull request its pr_number names.
func unsupportedMergeBranch(b *lang.Stage, where string) string {
	if b.Config.PR == nil {
		return fmt.Sprintf("action %q in a branch without pr_number (%s): a branch merges the pull request its pr_number names, in an issue's or a multi-PR run", b.Action, where)
	}
	return ""
}

// guardTarget is the stage the guard looks for a path to when merge is a branch: its
// parallel stage.
func guardTarget(p *lang.Pipeline, merge *lang.Stage) *lang.Stage {
	if p.Stage(merge.ID) != nil {
		return merge
	}
	for _, s := range p.Stages {
		if branchOf(s, merge.ID) != nil {
			return s
		}
	}
	return merge
}

// associateFrom applies outputs.pr of an accepted report of stage: in a multi-PR run, a pull
// request of the stage's `config.repo`; otherwise as associate does.
func (e *eval) associateFrom(p *lang.Pipeline, run *Run, stage *lang.Stage, outputs map[string]any) {
	v, ok := outputs["pr"]
	if !ok || e.issue == nil || !p.IsMultiPR() {
		e.associate(run, outputs)
		return
	}
	e.associateMulti(p, run, stage, v)
}

// branchMerge evaluates a merge_pr branch of a parallel stage: in an issue's or a multi-PR
// run it merges the pull request its pr_number names (issueMerge). done is false for other
// branches.
func (e *eval) branchMerge(p *lang.Pipeline, run *Run, b *lang.Stage) (moved, done bool) {
	if b.Type != lang.StageAction || b.Action != lang.ActionMergePR {
		return false, false
	}
	if e.issue == nil {
		run.Stages[b.ID].Status = StageFailed
		// Only a sub-pipeline run on a pull request gets here: validate refuses it elsewhere.
		e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("merge_pr as a branch (branch %q at %s) in a pull request's run: a branch merges one of an issue's or multi-PR run's pull requests; merge a pull request's own change after the join", b.ID, b.Pos))
		return false, true
	}
	return e.issueMerge(p, run, b), true
}

// PRCheck is a check that may read another pull request than the run's own: PR is its `pr`
// template (nil: the run's pull request). It renders to N, owner/name#N, or "all": every
// pull request of context.prs.
type PRCheck interface {
	PR() *lang.Template
}

// checkPR evaluates check c on the pull request(s) its `pr` names.
func (e *eval) checkPR(c lang.Condition, facts *Facts, t *lang.Template) GateResult {
	if e.gateEnv == nil {
		return GateResult{Check: c.Check, Status: GateError, Message: "the check reads a pull request of the run, and no run is in scope"}
	}
	env := e.gateEnv()
	text, err := t.Render(env)
	if err != nil {
		return GateResult{Check: c.Check, Status: GateError, Message: fmt.Sprintf("pr does not render: %v", err)}
	}
	text = strings.TrimSpace(text)
	own := facts.Repo
	if e.issue != nil {
		own = e.issue.base.Repo
	}
	var refs []PRRef
	if text == "all" {
		ctx, _ := env["context"].(map[string]any)
		refs = RunPRRefs(&Run{Context: ctx}, own)
		if len(refs) == 0 {
			return GateResult{Check: c.Check, Status: GatePending, Message: NoPullRequestYet, Who: "the agent that opens the pull request"}
		}
	} else {
		ref, ok := ParsePRRef(text)
		if !ok {
			if text == "" || text == "<nil>" {
				return GateResult{Check: c.Check, Status: GatePending, Message: NoPullRequestYet, Who: "the agent that opens the pull request"}
			}
			return GateResult{Check: c.Check, Status: GateFail, Message: fmt.Sprintf("pr is %q, not a pull request (N, owner/name#N or all)", text)}
		}
		if ref.Repo == "" {
			ref.Repo = own
		}
		ctx, _ := env["context"].(map[string]any)
		if e.issue != nil && !e.runHasPR(&Run{Context: ctx}, ref) {
			// Only the run's own pull requests: whatever a template renders, a gate does not
			// pass on a pull request the run did not associate.
			return GateResult{Check: c.Check, Status: GateFail, Message: fmt.Sprintf("%s is not a pull request of the run (context.prs)", ref)}
		}
		refs = []PRRef{ref}
	}
	var pending, failed, passed []string
	worst := GatePass
	for _, ref := range refs {
		pr := e.prOf(ref)
		if pr == nil {
			return GateResult{Check: c.Check, Status: GateFail, Message: fmt.Sprintf("pull request %s was not read: a gate's pr reads the run's pull requests (context.prs) of an issue's or a multi-PR run", ref)}
		}
		f := *facts
		f.PR = pr
		if !ref.own(own) {
			f.Repo = ref.Repo
		}
		if lc, ok := c.Eval.(LedgerCheck); ok && lc.ReadsLedger() { // step_ledger_pr.go
			f.Ledger = nil // never the run's own ledger: the approvals given on this pull request
			if e.gateRun != nil {
				f.Ledger = e.ledgerForPR(e.gatePipeline, e.gateRun, ref, pr, own)
			}
		}
		r := c.Eval.(Check).Evaluate(&f)
		line := ref.String() + ": " + r.Message
		switch r.Status {
		case GatePass:
			passed = append(passed, line)
		case GatePending:
			pending = append(pending, line)
			if worst == GatePass {
				worst = GatePending
			}
		default:
			failed = append(failed, line)
			worst = r.Status
		}
	}
	msg := strings.Join(append(append(failed, pending...), passed...), "; ")
	return GateResult{Check: c.Check, Status: worst, Message: msg}
}

// otherRepo is the repository of e.facts.PR when it is not the subject's (a pull request
// of another repository put in place by onPR), or "".
func (e *eval) otherRepo() string {
	if e.issue == nil || strings.EqualFold(e.facts.Repo, e.issue.base.Repo) {
		return ""
	}
	return e.facts.Repo
}

// DeadlineFollow is when a multi-PR run waiting on the facts of a pull request of another
// repository reads them again: events there do not reach this repository's workflow, so
// the sweep comes back for the run every FollowInterval (an event on the issue moves it
// sooner).
const DeadlineFollow = "follow_prs"

// FollowInterval is how often the sweep reads again the pull requests of other
// repositories a waiting multi-PR run depends on.
const FollowInterval = 15 * time.Minute

func init() { deadlineHandlers[DeadlineFollow] = (*eval).followDue }

// followDue: the run is evaluated on the facts just read; nothing else to do.
func (e *eval) followDue(p *lang.Pipeline, run *Run, stage *lang.Stage, d Deadline) bool {
	e.logf("run %s: the pull requests of other repositories are read again (%s)", run.ID, stage.ID)
	return false
}

// followOthers arms DeadlineFollow on the run's current stage when a multi-PR run waits at
// stage, a gate or a merge, and has a pull request in another repository.
func (e *eval) followOthers(p *lang.Pipeline, run *Run) {
	if e.issue == nil || !p.IsMultiPR() || run.Status != RunWaiting {
		return
	}
	sr := run.Stages[run.Stage]
	stage := p.Stage(run.Stage)
	if sr == nil || stage == nil {
		return
	}
	waitsOnPRs := stage.Type == lang.StageGate || (stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR) || len(mergeBranches(stage)) > 0
	if !waitsOnPRs {
		return
	}
	other := false
	for _, ref := range RunPRRefs(run, e.issue.base.Repo) {
		other = other || !ref.own(e.issue.base.Repo)
	}
	if !other {
		return
	}
	for _, d := range sr.Deadlines {
		if d.Kind == DeadlineFollow {
			return
		}
	}
	sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineFollow, At: e.now.Add(FollowInterval)})
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

// mayHaveAuthoredRunPRs reports whether login is, or may be, the author of any pull request
// of a multi-PR run (one not read: its author is not known): a human stage's approval is
// for all of them, so none of their authors approves it.
func (e *eval) mayHaveAuthoredRunPRs(run *Run, login string) bool {
	if e.issue == nil {
		return false
	}
	p := e.cfg.PipelineFor(run)
	if !p.IsMultiPR() {
		return false
	}
	for _, ref := range RunPRRefs(run, e.issue.base.Repo) {
		pr := e.prOf(ref)
		if pr == nil || strings.EqualFold(login, pr.Author) {
			return true
		}
	}
	return false
}
