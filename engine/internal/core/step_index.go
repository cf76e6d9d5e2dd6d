package core

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// What is computed once per loaded pipeline instead of once per stage a run enters, or per
// event: the stages by id, how often each may be entered (RevisitLimit), and the stages the
// approvals ledger reads. A run that passes a thousand gates in one event so costs a
// thousand times one gate, not a million; an event at gate 1 of 1,000 costs what one at
// gate 1 of 10 does.

// pipelineIndex is what an evaluation knows of one pipeline.
type pipelineIndex struct {
	stages  map[string]*lang.Stage
	revisit map[string]int // the largest max_iterations of a loop rule that leads to a stage
	ledger  []*lang.Stage  // the stages that may give the ledger entries
}

// indexKey is the key of a pipeline's index among its memos.
type indexKey struct{}

func (e *Eval) index(p *lang.Pipeline) *pipelineIndex {
	return p.Memo(indexKey{}, func() any { return newIndex(p) }).(*pipelineIndex)
}

func newIndex(p *lang.Pipeline) *pipelineIndex {
	x := &pipelineIndex{stages: make(map[string]*lang.Stage, len(p.Stages)), revisit: map[string]int{}}
	for _, s := range p.Stages {
		if _, dup := x.stages[s.ID]; !dup {
			x.stages[s.ID] = s // the first of a duplicated id, as Pipeline.Stage finds it
		}
		x.loopRules(s)
		if model.IsReviewStage(s) || s.Type == lang.StageParallel || (s.Type == lang.StageHuman && s.WaitFor == lang.WaitApproval) {
			x.ledger = append(x.ledger, s)
		}
	}
	return x
}

func (x *pipelineIndex) loopRules(s *lang.Stage) {
	consider := func(r *lang.Rule) {
		if r != nil && r.Goto != "" && r.MaxIterations > x.revisit[r.Goto] {
			x.revisit[r.Goto] = r.MaxIterations
		}
	}
	for _, r := range s.Verdicts {
		consider(r)
	}
	consider(s.OnFailRule)
	consider(s.OnAnyReject)
	consider(s.OnCIFailure)
	for _, b := range s.Branches {
		x.loopRules(b)
	}
}

// StageOf is p.Stage(id), found in the evaluation's index of p.
func (e *Eval) StageOf(p *lang.Pipeline, id string) *lang.Stage {
	return e.index(p).stages[id]
}

// LedgerStages are the stages of p, in order, whose records the approvals ledger reads:
// review stages, parallel stages and human stages that wait for approvals.
func (e *Eval) LedgerStages(p *lang.Pipeline) []*lang.Stage {
	return e.index(p).ledger
}

// revisitLimit is RevisitLimit, from the evaluation's index of p.
func (e *Eval) revisitLimit(p *lang.Pipeline, id string) int {
	if most := e.index(p).revisit[id]; most > 0 {
		return most + 1
	}
	return DefaultRevisits
}
