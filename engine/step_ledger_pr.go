package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// The approvals ledger of one pull request of a run (pr_approvals_met with `pr`): the
// review stages that reviewed that pull request — the run's own when it is the run's pull
// request, and those of its child runs (sub-pipelines, pipeline branches) whose pull request
// it is — each judged on that pull request's current head. An approval given on another
// pull request never counts for it.

// LedgerCheck is implemented by checks that read the approvals ledger (pr_approvals_met):
// evaluated on another pull request of the run, they get that pull request's ledger.
type LedgerCheck interface {
	ReadsLedger() bool
}

// ledgerForPR builds the ledger of pull request pr (ref, in repository own unless it names
// another) for run of p.
func (e *eval) ledgerForPR(p *lang.Pipeline, run *Run, ref PRRef, pr *PullRequest, own string) *Ledger {
	l := &Ledger{Entries: []LedgerEntry{}, Stages: []LedgerStage{}}
	old := e.facts
	f := *e.facts
	f.PR = pr
	e.facts = &f
	defer func() { e.facts = old }()
	seen := map[string]bool{}
	var add func(p *lang.Pipeline, r *Run, depth int)
	add = func(p *lang.Pipeline, r *Run, depth int) {
		if p == nil || r == nil || seen[r.ID] || depth > MaxLedgerDepth {
			return
		}
		seen[r.ID] = true
		mine, ok := runPRRef(r)
		if e.issue == nil && old.PR != nil { // a pull request's run: its subject
			mine, ok = PRRef{Repo: own, Number: old.PR.Number}, true
		}
		if ok && samePR(mine, ref, own) {
			sub := e.ledger(p, r)
			l.Entries = append(l.Entries, sub.Entries...)
			l.Stages = append(l.Stages, sub.Stages...)
		}
		// The current child of each pipeline stage and pipeline branch.
		for _, sr := range r.Stages {
			if sr == nil || sr.Child == "" || sr.Status == StageSkipped || sr.Status == StageCancelled {
				continue
			}
			for _, c := range e.st.Runs {
				if c.ID == sr.Child && c.Status != RunCancelled {
					add(e.cfg.PipelineFor(c), c, depth+1)
				}
			}
		}
	}
	add(p, run, 0)
	return l
}

// MaxLedgerDepth bounds how deep ledgerForPR follows child runs (a forged state cannot make
// it loop: each run is visited once).
const MaxLedgerDepth = 16

// samePR reports whether a and b name the same pull request, a reference without a
// repository meaning one of own.
func samePR(a, b PRRef, own string) bool {
	if a.Repo == "" {
		a.Repo = own
	}
	if b.Repo == "" {
		b.Repo = own
	}
	return a.Number == b.Number && strings.EqualFold(a.Repo, b.Repo)
}

// reviewedAnother says why the review stages of run, an issue's run, were not given on the
// pull request of the facts (e.facts.PR): the run's pull request (context.pr_number) is
// another one, or it has none. The head SHA alone cannot tell: one commit can head two pull
// requests (against two bases, or in two repositories), and an approval of one is not an
// approval of the other. "" when they were given on it, and in a pull request's run (its
// review stages review its subject).
func (e *eval) reviewedAnother(run *Run) string {
	if e.issue == nil || e.facts.PR == nil {
		return ""
	}
	ref, ok := runPRRef(run)
	switch {
	case !ok:
		return fmt.Sprintf("run %s has no pull request; its reviews were not given on pull request #%d", run.ID, e.facts.PR.Number)
	case e.prOf(ref) != e.facts.PR:
		return fmt.Sprintf("run %s reviewed %s, not this pull request (#%d)", run.ID, ref, e.facts.PR.Number)
	}
	return ""
}

// notOn marks every review stage of l unmet (why) and drops its entries: they were given on
// another pull request than the one l is read for.
func notOn(l *Ledger, why string) {
	l.Entries = l.Entries[:0]
	for i := range l.Stages {
		l.Stages[i].Met = false
		l.Stages[i].Why = l.Stages[i].Stage + ": " + why
	}
}
