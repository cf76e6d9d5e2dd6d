package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// Nothing acts on a subject that is done. Runs advance in `priority` order, and the runs
// after one that acts wait for its effects (advancePass): a merge asked for holds every
// later run until its outcome is known. Once the merge of the subject pull request (or
// the close of the subject issue) is performed, the runs that waited would go on in the
// rounds after it, on a subject that is done: an agent dispatched to work on a merged pull
// request, a label put on it. They are cancelled instead, before they are stepped, saying
// which run made the subject done. The event remembers that run (Result.DoneBy, passed on
// in Input.DoneBy), so that its own stages after the merge still run, and so do its
// sub-pipelines'. Runs of a pipeline that starts on the closing itself run on a closed
// subject by design and are left alone. On a later event, closedSubject ends what is
// still open on a subject that is not.

// noteDone records the run whose performed effect made the subject done: a merge_pr or
// close_issue effect that succeeded, after which the facts show the subject not open.
func (e *eval) noteDone(outcomes []Outcome) {
	if e.DoneBy != "" || e.Facts.PR == nil || e.Facts.PR.State == PROpen {
		return
	}
	for _, o := range outcomes {
		if o.Err != "" || o.Unknown {
			continue
		}
		if !strings.HasSuffix(o.Key, "/"+string(EffectMerge)) && !strings.HasSuffix(o.Key, "/"+string(EffectCloseIssue)) {
			continue
		}
		if run := e.effectRun(o.Key); run != nil {
			e.DoneBy = e.rootOf(run).ID
			return
		}
	}
}

// effectRun is the run an effect key (<run id>/<stage>/<attempt>/<kind>) belongs to.
func (e *eval) effectRun(key string) *Run {
	var found *Run
	for _, r := range e.St.Runs {
		if strings.HasPrefix(key, r.ID+"/") && (found == nil || len(r.ID) > len(found.ID)) {
			found = r
		}
	}
	return found
}

// rootOf is the top-level run run descends from (run itself when it has no parent).
func (e *eval) rootOf(run *Run) *Run {
	for n := 0; n <= 64; n++ {
		parent, _ := e.ParentOf(run)
		if parent == nil {
			break
		}
		run = parent
	}
	return run
}

// doneByOther cancels run, a top-level run about to be stepped, when another run made the
// subject done in this event, and reports whether it did.
func (e *eval) doneByOther(p *lang.Pipeline, run *Run) bool {
	if e.DoneBy == "" || run.Status.Final() || run.ID == e.DoneBy || core.ClosingTrigger(p) {
		return false
	}
	what := "pull request"
	if e.Issue != nil {
		what = "issue"
	}
	e.finish(run, RunCancelled, TargetCancelled, fmt.Sprintf("the %s was %s by run %s in this event; this run acts on it no more",
		what, e.Facts.PR.State, e.DoneBy))
	return true
}

// RootRun is the id of the top-level run that run id descends from in st (id itself when
// it is not a sub-pipeline's run, or is not in st).
func RootRun(st *State, id string) string {
	byID := map[string]*Run{}
	if st != nil {
		for _, r := range st.Runs {
			byID[r.ID] = r
		}
	}
	for n := 0; n <= 64; n++ {
		r := byID[id]
		if r == nil || r.Parent == "" {
			break
		}
		id, _ = core.SplitParent(r.Parent)
	}
	return id
}
