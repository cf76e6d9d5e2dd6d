package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/doneby"
	"github.com/org/pipeline-action/engine/lang"
)

// Nothing acts on a subject that is done. The runs after one that acts wait for its
// effects (advancePass); once its merge of the subject pull request (or close of the
// subject issue) is performed, they would go on in the rounds after it on a subject that
// is done. They are cancelled instead, before they are stepped. The event remembers the
// run that made it done (Result.DoneBy, passed on in Input.DoneBy): its own stages after
// the merge still run, and so do its sub-pipelines'. Runs of a pipeline that starts on the
// closing itself run on a closed subject by design. On a later event, closedSubject ends
// what is still open on a subject that is not.

// noteDone records the run whose performed effect made the subject done: a merge or close
// that succeeded, after which the facts show the subject not open.
func (e *eval) noteDone(outcomes []model.Outcome) {
	if e.DoneBy != "" || e.Facts.PR == nil || e.Facts.PR.State == model.PROpen {
		return
	}
	for _, o := range outcomes {
		if o.Err == "" && !o.Unknown && doneby.Closing(o.Key) {
			if run := doneby.Owner(e.St.Runs, o.Key); run != nil {
				e.DoneBy = doneby.Root(e.St.Runs, run.ID)
				return
			}
		}
	}
}

// doneByOther cancels run, a top-level run about to be stepped, when another run made the
// subject done in this event, and reports whether it did.
func (e *eval) doneByOther(p *lang.Pipeline, run *model.Run) bool {
	if e.DoneBy == "" || run.Status.Final() || run.ID == e.DoneBy || core.ClosingTrigger(p) {
		return false
	}
	what := "pull request"
	if e.Issue != nil {
		what = "issue"
	}
	e.finish(run, model.RunCancelled, TargetCancelled, fmt.Sprintf("the %s was %s by run %s in this event; this run acts on it no more",
		what, e.Facts.PR.State, e.DoneBy))
	return true
}

// RootRun is the id of the top-level run that run id descends from in st (id itself when
// it is not a sub-pipeline's run, or is not in st).
func RootRun(st *model.State, id string) string {
	if st == nil {
		return id
	}
	return doneby.Root(st.Runs, id)
}
