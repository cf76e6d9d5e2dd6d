package subject

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// A gate's `pr` (ci_status, pr_approvals_met) reads the pull request it names, or, with
// `pr: all`, every pull request of context.prs (all must pass; one failing fails it). The
// approvals ledger of one pull request of a run holds the review stages that reviewed that
// pull request — the run's own when it is the run's pull request, and those of its child
// runs (sub-pipelines, pipeline branches) whose pull request it is — each judged on that
// pull request's current head. An approval given on another pull request never counts for
// it.

// GateKernel is the evaluator as a check of another pull request of a run sees it.
type GateKernel interface {
	Kernel
	// Gate is the run whose gates are being evaluated, its pipeline and its env; ok is
	// false when no run is in scope.
	Gate() (p *lang.Pipeline, run *model.Run, env lang.Env, ok bool)
	// LedgerOn is the approvals ledger of run r of p read with pr as the facts' pull
	// request.
	LedgerOn(pr *model.PullRequest, p *lang.Pipeline, r *model.Run) *model.Ledger
}

// evaluator is a check of the facts.
type evaluator interface {
	Evaluate(f *model.Facts) model.GateResult
}

// ledgerReader is a check that reads the approvals ledger (ReadsLedger true).
type ledgerReader interface{ ReadsLedger() bool }

// MaxLedgerDepth bounds how deep the ledger of a pull request follows child runs (a forged
// state cannot make it loop: each run is visited once).
const MaxLedgerDepth = 16

// CheckPR evaluates check c on facts, on the pull request(s) its `pr` template t names.
func CheckPR(k GateKernel, c lang.Condition, facts *model.Facts, t *lang.Template) model.GateResult {
	p, run, env, ok := k.Gate()
	if !ok {
		return model.GateResult{Check: c.Check, Status: model.GateError, Message: "the check reads a pull request of the run, and no run is in scope"}
	}
	s := k.Scope()
	own := facts.Repo
	if s.Issue != nil {
		own = s.Issue.Base.Repo
	}
	refs, bad := prRefs(s, c, env, t, own)
	if bad != nil {
		return *bad
	}
	var pending, failed, passed []string
	worst := model.GatePass
	for _, ref := range refs {
		pr := s.PrOf(ref)
		if pr == nil {
			return model.GateResult{Check: c.Check, Status: model.GateFail, Message: fmt.Sprintf("pull request %s was not read: a gate's pr reads the run's pull requests (context.prs) of an issue's or a multi-PR run", ref)}
		}
		f := *facts
		f.PR = pr
		if !ref.Own(own) {
			f.Repo = ref.Repo
		}
		if lc, ok := c.Eval.(ledgerReader); ok && lc.ReadsLedger() {
			// never the run's own ledger: the approvals given on this pull request
			f.Ledger = LedgerForPR(k, p, run, ref, pr, own)
		}
		r := c.Eval.(evaluator).Evaluate(&f)
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

// prRefs are the pull requests t names in env, or the result of the check when it names none
// it may read.
func prRefs(s Scope, c lang.Condition, env lang.Env, t *lang.Template, own string) ([]model.PRRef, *model.GateResult) {
	text, err := t.Render(env)
	if err != nil {
		return nil, &model.GateResult{Check: c.Check, Status: model.GateError, Message: fmt.Sprintf("pr does not render: %v", err)}
	}
	text = strings.TrimSpace(text)
	ctx, _ := env["context"].(map[string]any)
	noneYet := &model.GateResult{Check: c.Check, Status: model.GatePending, Message: NoPullRequestYet, Who: "the agent that opens the pull request"}
	if text == "all" {
		refs := model.RunPRRefs(&model.Run{Context: ctx}, own)
		if len(refs) == 0 {
			return nil, noneYet
		}
		return refs, nil
	}
	ref, ok := model.ParsePRRef(text)
	if !ok {
		if text == "" || text == "<nil>" {
			return nil, noneYet
		}
		return nil, &model.GateResult{Check: c.Check, Status: model.GateFail, Message: fmt.Sprintf("pr is %q, not a pull request (N, owner/name#N or all)", text)}
	}
	if ref.Repo == "" {
		ref.Repo = own
	}
	if s.Issue != nil && !s.RunHasPR(&model.Run{Context: ctx}, ref) {
		// Only the run's own pull requests: whatever a template renders, a gate does not
		// pass on a pull request the run did not associate.
		return nil, &model.GateResult{Check: c.Check, Status: model.GateFail, Message: fmt.Sprintf("%s is not a pull request of the run (context.prs)", ref)}
	}
	return []model.PRRef{ref}, nil
}

// LedgerForPR builds the ledger of pull request pr (ref, in repository own unless it names
// another) for run of p.
func LedgerForPR(k GateKernel, p *lang.Pipeline, run *model.Run, ref model.PRRef, pr *model.PullRequest, own string) *model.Ledger {
	l := &model.Ledger{Entries: []model.LedgerEntry{}, Stages: []model.LedgerStage{}}
	s := k.Scope()
	runs := k.Runs()
	seen := map[string]bool{}
	var add func(p *lang.Pipeline, r *model.Run, depth int)
	add = func(p *lang.Pipeline, r *model.Run, depth int) {
		if p == nil || r == nil || seen[r.ID] || depth > MaxLedgerDepth {
			return
		}
		seen[r.ID] = true
		mine, ok := RunPRRef(r)
		if s.Issue == nil && s.Facts.PR != nil { // a pull request's run: its subject
			mine, ok = model.PRRef{Repo: own, Number: s.Facts.PR.Number}, true
		}
		if ok && SamePR(mine, ref, own) {
			sub := k.LedgerOn(pr, p, r)
			l.Entries = append(l.Entries, sub.Entries...)
			l.Stages = append(l.Stages, sub.Stages...)
		}
		// The current child of each pipeline stage and pipeline branch.
		for _, sr := range r.Stages {
			if sr == nil || sr.Child == "" || sr.Status == model.StageSkipped || sr.Status == model.StageCancelled {
				continue
			}
			for _, c := range runs {
				if c.ID == sr.Child && c.Status != model.RunCancelled {
					add(k.Pipeline(c), c, depth+1)
				}
			}
		}
	}
	add(p, run, 0)
	return l
}
