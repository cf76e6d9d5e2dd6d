package core

import (
	"time"

	"github.com/org/pipeline-action/engine/model"
)

// A run id (<pipeline>/<subject number>/<n>) is never used twice on a subject, even after
// its state is lost (the state branch deleted, the state comment edited or deleted: the
// pipeline then starts again from the facts). n is one more than the highest number the
// state knows of, and at least one more than the whole minutes between the moment GitHub
// created the subject and now: the creation time is GitHub's and the clock only moves on,
// so a state rolled back or lost cannot bring back an id already handed out — unless the
// pipeline started again within the same minute as the run whose number it would reuse
// (or runs of it started faster than one a minute, and the state was lost within those
// minutes). The nonce of each dispatch leaves no report of an
// earlier run to count even then. Minutes keep the first run of a pull request its
// number 1 (the action starts seconds after GitHub created it).

// NextRunNumber is the n of a new run of pipeline on the subject.
func (e *Eval) NextRunNumber(pipeline string) int {
	n := e.St.Marks[pipeline].Number + 1
	for _, r := range e.runsOf(pipeline) {
		if k := model.RunNumber(r.ID); k >= n {
			n = k + 1
		}
	}
	created := e.Facts.PR.CreatedAt
	if !created.IsZero() && e.Now.After(created) {
		if m := int(e.Now.Sub(created)/time.Minute) + 1; m > n {
			n = m
		}
	}
	return n
}
