package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// answered applies dec, which follows an answer of the work s sent out (its Answer is
// set), and reports whether the run moved.
func (e *eval) answered(p *lang.Pipeline, run *model.Run, s *lang.Stage, dec stage.Decision) bool {
	moved := true
	switch {
	case dec.Error != "":
		moved = e.agentError(run, s, dec.Error)
	case e.LeaveBranch(run, s, parallel.VerdictStatus(dec.Verdict), dec.Why):
	case dec.Rule != nil:
		rules.Verdict(rulesKernel{e}, p, run, s, dec.Verdict, dec.Rule, dec.Why)
	case dec.Leave:
		e.leave(run, s, dec.Status, dec.Target, dec.Why)
	default:
		e.leave(run, s, model.StageFailed, lang.TargetFail, fmt.Sprintf("%s, and stage %q has no on_%s", dec.Why, s.ID, dec.Verdict))
	}
	if dec.Answered.After(e.Now) {
		// A clock behind GitHub's: what the move entered now (a new attempt too) counts as
		// entered when the answer was given, so that the same answer cannot answer it too.
		for _, sr := range run.Stages {
			if sr.EnteredAt.Equal(e.Now) {
				sr.EnteredAt = dec.Answered
			}
		}
	}
	return moved
}
