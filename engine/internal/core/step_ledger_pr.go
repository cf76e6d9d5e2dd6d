package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// SamePR reports whether a and b name the same pull request, a reference without a
// repository meaning one of own.
func SamePR(a, b model.PRRef, own string) bool {
	if a.Repo == "" {
		a.Repo = own
	}
	if b.Repo == "" {
		b.Repo = own
	}
	return a.Number == b.Number && strings.EqualFold(a.Repo, b.Repo)
}

// ReviewedAnother says why the review stages of run, an issue's run, were not given on the
// pull request of the facts (e.facts.PR): the run's pull request (context.pr_number) is
// another one, or it has none. The head SHA alone cannot tell: one commit can head two pull
// requests (against two bases, or in two repositories), and an approval of one is not an
// approval of the other. "" when they were given on it, and in a pull request's run (its
// review stages review its subject).
func (e *Eval) ReviewedAnother(run *model.Run) string {
	if e.Issue == nil || e.Facts.PR == nil {
		return ""
	}
	ref, ok := RunPRRef(run)
	switch {
	case !ok:
		return fmt.Sprintf("run %s has no pull request; its reviews were not given on pull request #%d", run.ID, e.Facts.PR.Number)
	case e.PrOf(ref) != e.Facts.PR:
		return fmt.Sprintf("run %s reviewed %s, not this pull request (#%d)", run.ID, ref, e.Facts.PR.Number)
	}
	return ""
}

// NotOn marks every review stage of l unmet (why) and drops its entries: they were given on
// another pull request than the one l is read for.
func NotOn(l *model.Ledger, why string) {
	l.Entries = l.Entries[:0]
	for i := range l.Stages {
		l.Stages[i].Met = false
		l.Stages[i].Why = l.Stages[i].Stage + ": " + why
	}
}
