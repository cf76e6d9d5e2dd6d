package core

import (
	"github.com/org/pipeline-action/engine/model"
)

// PushedSinceStart reports whether the head of run's pull request moved since the run
// started: it saw the current head after another. A sub-pipeline's run is started with its
// parent's head and the time the parent saw it: it counts only a head it saw after it started.
func (e *Eval) PushedSinceStart(run *model.Run) bool {
	head := e.Facts.PR.HeadSHA
	if head == "" || head != run.Head || run.HeadSince.IsZero() {
		return false
	}
	return run.Parent == "" || run.HeadSince.After(run.StartedAt)
}
