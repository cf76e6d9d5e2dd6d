package core

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"

	"github.com/org/pipeline-action/engine/lang"
)

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

func (e *Eval) FindEffect(key string) (*model.Run, *lang.Stage) {
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.Cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		if stage != nil && stage.Type == lang.StageAgent && agent.DispatchKey(run, stage) == key {
			return run, stage
		}
		if stage != nil && stage.Type == lang.StageParallel {
			if b := branchEffect(run, stage, key); b != nil {
				return run, b
			}
		}
		if stage == nil || stage.Type != lang.StageAction {
			continue
		}
		sr := run.Stages[stage.ID]
		if fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, sr.Attempt, stage.Action) == key {
			return run, stage
		}
	}
	return nil, nil
}

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

// FirstUnmet is the message of the first required condition that does not pass.
func FirstUnmet(rs []model.GateResult) string {
	for _, r := range rs {
		if !r.Optional && r.Status != model.GatePass {
			return r.Check + ": " + r.Message
		}
	}
	return ""
}

func IsDone(s model.StageStatus) bool {
	return s == model.StagePassed || s == model.StageSucceeded || s == model.StageFailed
}
