package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"

	"github.com/org/pipeline-action/engine/stage/agent"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// answer is what came back for one attempt of one stage of one run, of the work the stage
// sent out: a report, or the end of the workflow run that carried the work without one.
// Exactly one of its fields is set.
type answer struct {
	report  *model.Report
	failure *model.AgentFailure
}

// deliver hands a to the type of the stage it names, once the run is found standing at
// that attempt of it; an answer for anything else is refused and logged.
func (e *eval) deliver(a answer) {
	runID, stageID, attempt := a.target()
	if r := a.report; r != nil {
		if why := badReport(r); why != "" {
			refuseReport(e, r, why)
			return
		}
	}
	run, p, stage, why := e.tree().StandingAt(e.St.Past, e.Subject(), runID, stageID, attempt)
	if why != "" {
		a.refuse(e, why)
		return
	}
	stageTypes[stage.Type].answer(e, p, run, stage, a)
}

func (a answer) target() (run, stage string, attempt int) {
	if a.report != nil {
		return a.report.Run, a.report.Stage, a.report.Attempt
	}
	return a.failure.Run, a.failure.Stage, a.failure.Attempt
}

func (a answer) refuse(e *eval, why string) {
	if a.report != nil {
		refuseReport(e, a.report, why)
		return
	}
	ignoreFailure(e, a.failure, why)
}

// badReport says what makes r no report at all, whatever it is for.
func badReport(r *model.Report) string {
	if !slices.Contains(agent.Verdicts, r.Verdict) {
		return fmt.Sprintf("unknown verdict %q (one of %s)", r.Verdict, strings.Join(agent.Verdicts, ", "))
	}
	if b, err := json.Marshal(r.Outputs); err != nil || len(b) > agent.MaxOutputs {
		return fmt.Sprintf("its outputs are not JSON or larger than %d bytes", agent.MaxOutputs)
	}
	return ""
}

func refuseReport(e *eval, r *model.Report, why string) {
	e.Logf("%s", agent.Refused(r, why))
}

func ignoreFailure(e *eval, f *model.AgentFailure, why string) {
	e.Logf("%s", agent.Ignored(f, why))
}

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
