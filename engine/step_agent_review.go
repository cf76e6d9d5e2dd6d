package engine

import (
	"github.com/org/pipeline-action/engine/internal/agentreview"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// agentReview applies the review by ag's login on the run's head, submitted since the
// stage's attempt was entered, as that attempt's report; it reports whether there was one.
func (e *eval) agentReview(p *lang.Pipeline, run *model.Run, stage *lang.Stage, ag *lang.Agent) bool {
	pr := e.RunPR(run) // an issue's run: its pull request's
	if ag == nil || pr == nil {
		return false
	}
	sr, head := run.Stages[stage.ID], pr.HeadSHA
	rv, ok := agentreview.Find(pr.Reviews, ag.ReviewLogin(), head, sr.EnteredAt)
	if !ok {
		return false
	}
	sr.HeadSHA = head // the verdict is given on the head it reviewed
	e.applyVerdict(p, run, stage, agentreview.Report(run.ID, stage.ID, sr.Attempt, rv), agentreview.Why(stage.Agent, rv, sr.Attempt))
	agentreview.After(run, e.Now, rv)
	return true
}
