package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
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
