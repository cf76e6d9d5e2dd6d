package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// Multi-PR runs (`scope: multi-pr`). Their subject is an issue, as that of an issue's run:
// they start on issues.* events and keep their state on the issue. Their
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

// mergeTarget is the pull request merge_pr stage of run merges: its `pr_number` rendered,
// or the run's own. why says why there is none to merge.
func (e *eval) mergeTarget(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (pr *model.PullRequest, ref model.PRRef, why string) {
	if stage.Config.PR == nil {
		if r, ok := subject.RunPRRef(run); ok {
			ref = r
		}
		return e.RunPR(run), ref, ""
	}
	text, err := stage.Config.PR.Render(e.env(p, run))
	if err != nil {
		return nil, ref, fmt.Sprintf("pr_number of stage %q does not render: %v", stage.ID, err)
	}
	ref, ok := model.ParsePRRef(text)
	if !ok {
		if strings.TrimSpace(text) == "" || text == "<nil>" {
			return nil, ref, NoPullRequestYet
		}
		return nil, ref, fmt.Sprintf("pr_number of stage %q is %q, not a pull request (N or owner/name#N)", stage.ID, text)
	}
	if !core.Scope(e.Eval).RunHasPR(run, ref) {
		return nil, ref, fmt.Sprintf("%s is not a pull request of the run (context.prs); it is not merged", ref)
	}
	if pr = core.Scope(e.Eval).PrOf(ref); pr == nil {
		return nil, ref, fmt.Sprintf("pull request %s was not read", ref)
	}
	return pr, ref, ""
}

// issueMerge evaluates a merge_pr stage (or branch) of an issue's or a multi-PR run.
func (e *eval) issueMerge(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	pr, ref, why := e.mergeTarget(p, run, stage)
	if pr == nil {
		if why == "" {
			why = NoPullRequestYet
			if strings.HasPrefix(run.Message, "outputs.pr ") {
				why += "; " + run.Message
			}
		}
		return e.HoldAction(run, stage, why, "the agent that opens the pull request")
	}
	restore := onPR(e, pr, ref)
	defer restore()
	return stageTypes[lang.StageAction].step(e, p, run, stage)
}

// mergeAll checks, before a parallel stage with merge branches merges anything, that every
// one of its pull requests can be merged now. stop: the run does not go on to the branches
// (it waits, or escalated); moved: it escalated.
func (e *eval) mergeAll(p *lang.Pipeline, run *model.Run, par *lang.Stage) (stop, moved bool) {
	merges := subject.MergeBranches(par)
	if len(merges) == 0 || e.Issue == nil {
		return false, false
	}
	var t mergeTally
	for _, b := range merges {
		e.tallyMerge(p, run, b, &t)
	}
	sr := run.Stages[par.ID]
	switch {
	case len(t.blocked) > 0 && len(t.inFlight) > 0:
		// No other merge is asked for; the outcome of those in flight decides what to say.
		sr.Status = model.StageWaiting
		sr.Results = []model.GateResult{{Check: "mergeable", Status: model.GatePending, Who: "GitHub",
			Message: fmt.Sprintf("the merge of %s is in flight; %s", strings.Join(t.inFlight, ", "), strings.Join(t.blocked, "; "))}}
		run.Status = model.RunWaiting
		return true, false
	case len(t.blocked) > 0 && len(t.merged) == 0:
		why := fmt.Sprintf("stage %q merges all of its pull requests or none; none is merged: %s", par.ID, strings.Join(t.blocked, "; "))
		parallel.Cancel(e.context(p, run), run, par, "none is merged")
		sr.Message = why
		e.escalate(run, why)
		return true, true
	case len(t.blocked) > 0:
		why := fmt.Sprintf("stage %q merges all of its pull requests or none, and a merge went in before another failed: merged %s; not merged %s: %s",
			par.ID, strings.Join(t.merged, ", "), strings.Join(t.notMerged, ", "), strings.Join(t.blocked, "; "))
		parallel.Cancel(e.context(p, run), run, par, "the merges are incomplete")
		sr.Message = why
		e.escalate(run, why)
		return true, true
	case len(t.waiting) > 0 && len(t.merged) == 0:
		if e.waitMergeability(run, sr, fmt.Sprintf("every pull request of stage %q", par.ID)) {
			return true, true
		}
		sr.Status = model.StageWaiting
		sr.Results = []model.GateResult{{Check: "mergeable", Status: model.GatePending, Message: strings.Join(t.waiting, "; "), Who: "GitHub"}}
		run.Status = model.RunWaiting
		return true, false
	}
	return false, false
}

// mergeTally is what the branches of a stage that merges all of its pull requests or none
// came to: the pull requests merged, not merged, in flight, and why any is held back.
type mergeTally struct{ merged, notMerged, blocked, waiting, inFlight []string }

// tallyMerge adds merge branch b of the run's current stage to t.
func (e *eval) tallyMerge(p *lang.Pipeline, run *model.Run, b *lang.Stage, t *mergeTally) {
	bsr := run.Stages[b.ID]
	if bsr == nil || bsr.Status == model.StageSkipped {
		return
	}
	pr, ref, why := e.mergeTarget(p, run, b)
	name := ref.String()
	if ref.Number == 0 {
		name = "pr_number " + b.Config.PR.Src
	}
	if pr == nil {
		t.notMerged = append(t.notMerged, b.ID)
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, why))
		return
	}
	if pr.State == model.PRMerged {
		t.merged = append(t.merged, fmt.Sprintf("%s (branch %s)", name, b.ID))
		return
	}
	t.notMerged = append(t.notMerged, fmt.Sprintf("%s (branch %s)", name, b.ID))
	if bsr.Status == model.StageActing {
		// Its merge was asked for and may be going in: what is merged is not known
		// before its outcome is. What its facts show still holds the others back.
		t.inFlight = append(t.inFlight, name)
	}
	if bsr.Status == model.StageFailed {
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, bsr.Message))
		return
	}
	restore := onPR(e, pr, ref)
	plan := e.guard(p, run, b)
	restore()
	switch {
	case pr.State == model.PRClosed:
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): it was closed without merging", name, b.ID))
	case pr.Draft:
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): it is a draft", name, b.ID))
	case pr.Mergeable == model.Conflicting:
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): it has conflicts with its base branch", name, b.ID))
	case plan.back != nil || plan.why != "":
		w := plan.why
		if plan.back != nil {
			w = fmt.Sprintf("the merge guard does not hold: %s", plan.why)
		}
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, w))
	case pr.Mergeable != model.Mergeable || pr.MergeState == model.MergeStateUnknown:
		t.waiting = append(t.waiting, fmt.Sprintf("%s: GitHub has not computed whether it can be merged", name))
	}
}

// branchMerge evaluates a merge_pr branch of a parallel stage: in an issue's or a multi-PR
// run it merges the pull request its pr_number names (issueMerge). done is false for other
// branches.
func (e *eval) branchMerge(p *lang.Pipeline, run *model.Run, b *lang.Stage) (moved, done bool) {
	if b.Type != lang.StageAction || b.Action != lang.ActionMergePR {
		return false, false
	}
	if e.Issue == nil {
		run.Stages[b.ID].Status = model.StageFailed
		// Only a sub-pipeline run on a pull request gets here: validate refuses it elsewhere.
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("merge_pr as a branch (branch %q at %s) in a pull request's run: a branch merges one of an issue's or multi-PR run's pull requests; merge a pull request's own change after the join", b.ID, b.Pos))
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
func (e *eval) checkPR(c lang.Condition, facts *model.Facts, t *lang.Template) model.GateResult {
	if e.Gate == nil {
		return model.GateResult{Check: c.Check, Status: model.GateError, Message: "the check reads a pull request of the run, and no run is in scope"}
	}
	env := e.Gate.Env()
	text, err := t.Render(env)
	if err != nil {
		return model.GateResult{Check: c.Check, Status: model.GateError, Message: fmt.Sprintf("pr does not render: %v", err)}
	}
	text = strings.TrimSpace(text)
	own := facts.Repo
	if e.Issue != nil {
		own = e.Issue.Base.Repo
	}
	var refs []model.PRRef
	if text == "all" {
		ctx, _ := env["context"].(map[string]any)
		refs = model.RunPRRefs(&model.Run{Context: ctx}, own)
		if len(refs) == 0 {
			return model.GateResult{Check: c.Check, Status: model.GatePending, Message: NoPullRequestYet, Who: "the agent that opens the pull request"}
		}
	} else {
		ref, ok := model.ParsePRRef(text)
		if !ok {
			if text == "" || text == "<nil>" {
				return model.GateResult{Check: c.Check, Status: model.GatePending, Message: NoPullRequestYet, Who: "the agent that opens the pull request"}
			}
			return model.GateResult{Check: c.Check, Status: model.GateFail, Message: fmt.Sprintf("pr is %q, not a pull request (N, owner/name#N or all)", text)}
		}
		if ref.Repo == "" {
			ref.Repo = own
		}
		ctx, _ := env["context"].(map[string]any)
		if e.Issue != nil && !core.Scope(e.Eval).RunHasPR(&model.Run{Context: ctx}, ref) {
			// Only the run's own pull requests: whatever a template renders, a gate does not
			// pass on a pull request the run did not associate.
			return model.GateResult{Check: c.Check, Status: model.GateFail, Message: fmt.Sprintf("%s is not a pull request of the run (context.prs)", ref)}
		}
		refs = []model.PRRef{ref}
	}
	var pending, failed, passed []string
	worst := model.GatePass
	for _, ref := range refs {
		pr := core.Scope(e.Eval).PrOf(ref)
		if pr == nil {
			return model.GateResult{Check: c.Check, Status: model.GateFail, Message: fmt.Sprintf("pull request %s was not read: a gate's pr reads the run's pull requests (context.prs) of an issue's or a multi-PR run", ref)}
		}
		f := *facts
		f.PR = pr
		if !ref.Own(own) {
			f.Repo = ref.Repo
		}
		if lc, ok := c.Eval.(LedgerCheck); ok && lc.ReadsLedger() {
			f.Ledger = nil // never the run's own ledger: the approvals given on this pull request
			if e.Gate != nil {
				f.Ledger = e.ledgerForPR(e.Gate.Pipeline, e.Gate.Run, ref, pr, own)
			}
		}
		r := c.Eval.(Check).Evaluate(&f)
		line := ref.String() + ": " + r.Message
		switch r.Status {
		case model.GatePass:
			passed = append(passed, line)
		case model.GatePending:
			pending = append(pending, line)
			if worst == model.GatePass {
				worst = model.GatePending
			}
		default:
			failed = append(failed, line)
			worst = r.Status
		}
	}
	msg := strings.Join(append(append(failed, pending...), passed...), "; ")
	return model.GateResult{Check: c.Check, Status: worst, Message: msg}
}
