package engine

import (
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
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
func (e *eval) ledgerForPR(p *lang.Pipeline, run *model.Run, ref model.PRRef, pr *model.PullRequest, own string) *model.Ledger {
	l := &model.Ledger{Entries: []model.LedgerEntry{}, Stages: []model.LedgerStage{}}
	old := e.Facts
	f := *e.Facts
	f.PR = pr
	e.Facts = &f
	defer func() { e.Facts = old }()
	seen := map[string]bool{}
	var add func(p *lang.Pipeline, r *model.Run, depth int)
	add = func(p *lang.Pipeline, r *model.Run, depth int) {
		if p == nil || r == nil || seen[r.ID] || depth > MaxLedgerDepth {
			return
		}
		seen[r.ID] = true
		mine, ok := subject.RunPRRef(r)
		if e.Issue == nil && old.PR != nil { // a pull request's run: its subject
			mine, ok = model.PRRef{Repo: own, Number: old.PR.Number}, true
		}
		if ok && subject.SamePR(mine, ref, own) {
			sub := e.ledger(p, r)
			l.Entries = append(l.Entries, sub.Entries...)
			l.Stages = append(l.Stages, sub.Stages...)
		}
		// The current child of each pipeline stage and pipeline branch.
		for _, sr := range r.Stages {
			if sr == nil || sr.Child == "" || sr.Status == model.StageSkipped || sr.Status == model.StageCancelled {
				continue
			}
			for _, c := range e.St.Runs {
				if c.ID == sr.Child && c.Status != model.RunCancelled {
					add(e.Cfg.PipelineFor(c), c, depth+1)
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
