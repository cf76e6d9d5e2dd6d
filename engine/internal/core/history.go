package core

import (
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Record appends the transition of run from stage from to to, for why, to its history: at
// the evaluation's time, by its actor, with the kind MarkNext gave. The history keeps its
// head and its latest entries, and counts what it cut.
func (e *Eval) Record(run *model.Run, from, to, why string) {
	run.UpdatedAt = e.Now
	kind := ""
	if e.mark.run == run {
		kind, e.mark.run = e.mark.kind, nil
	}
	run.History = append(run.History, model.Transition{At: e.Now, Actor: e.Actor, From: from, To: to, Why: why, Kind: kind})
	if cut := len(run.History) - model.MaxHistory; cut > 0 {
		run.History = append(run.History[:model.HistoryHead], run.History[model.HistoryHead+cut:]...)
		run.HistoryCut += cut
	}
}

// MarkNext gives the next transition of run recorded kind (Transition.Kind); nil forgets
// a mark no transition took (a join that decides later records none).
func (e *Eval) MarkNext(run *model.Run, kind string) { e.mark.run, e.mark.kind = run, kind }

func actionDone(s *lang.Stage) string {
	switch s.Action {
	case lang.ActionMergePR:
		return "merged"
	case lang.ActionAddLabel:
		return "labels added"
	case lang.ActionRemoveLabel:
		return "labels removed"
	case lang.ActionComment:
		return "comment posted"
	}
	return s.Action + " done"
}

func IsDone(s model.StageStatus) bool {
	return s == model.StagePassed || s == model.StageSucceeded || s == model.StageFailed
}
