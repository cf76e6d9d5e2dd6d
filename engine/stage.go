package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/action"
	"github.com/org/pipeline-action/engine/stage/agent"
	"github.com/org/pipeline-action/engine/stage/delay"
	"github.com/org/pipeline-action/engine/stage/gate"
	"github.com/org/pipeline-action/engine/stage/human"
	"github.com/org/pipeline-action/engine/stage/parallel"
	"github.com/org/pipeline-action/engine/stage/pipeline"
	"github.com/org/pipeline-action/engine/stage/webhook"

	"github.com/org/pipeline-action/engine/lang"
)

// stageType is one type of stage as the step loop sees it: what entering a stage of
// the type arms, how a run standing at it is evaluated, which deadlines of its own it
// handles, what the merge guard re-checks of it, and how it moves as a branch of a
// parallel stage. Each type implements it once, in the file of the type, and is listed
// in stageTypes; what every stage shares (its timeout, mergeability polls, following
// other pull requests) is in the tables of deadline kinds.
type stageType interface {
	// arm adds the deadlines of the type's own to sr, whose stage was just entered at now.
	arm(stage *lang.Stage, sr *model.StageRun, now time.Time)
	// step evaluates run, which stands at stage, once, and reports whether it moved.
	step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool
	// deadline is the handler of a deadline kind of the type's own, or nil.
	deadline(kind string) deadlineHandler
	// recheck is the merge guard's judgement of s, a stage of the type on a path to the
	// merge, on today's facts.
	recheck(g *guardCheck, s *lang.Stage) stage.Verdict
	// stillHolds reports whether s, which the run left as sr says, holds for the merge
	// guard on today's facts.
	stillHolds(g *guardCheck, s *lang.Stage, sr *model.StageRun) bool
	// branch moves b, an open branch of the parallel stage run stands at, once; false
	// when the type is none a branch may have.
	branch(e *eval, p *lang.Pipeline, run *model.Run, b *lang.Stage) bool
	// answer applies a, what came back of the work stage sent out, to run, which stands
	// at the attempt a names.
	answer(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage, a answer)
	// worker is who works on s, as the status shows it beside the stage: its kind
	// ("agent") and name ("reviewer"), or "" and "" when nobody but the step loop does.
	worker(s *lang.Stage) (kind, name string)
}

// Worker is who works on s as the status shows it: its kind ("agent", "action",
// "pipeline") and its name, or "" and "" for a stage the step loop itself moves.
func Worker(s *lang.Stage) (kind, name string) {
	if t := stageTypes[s.Type]; t != nil {
		return t.worker(s)
	}
	return "", ""
}

// stageTypes are the types of stage Step executes, by their name in the language.
var stageTypes = map[lang.StageType]stageType{
	lang.StageAction:   unit{t: action.Type{}},
	lang.StageAgent:    unit{t: agent.Type{}},
	lang.StageDelay:    unit{t: delay.Type{}},
	lang.StageGate:     unit{t: gate.Type{}},
	lang.StageHuman:    unit{t: human.Type{}},
	lang.StageParallel: unit{t: parallel.Type{}},
	lang.StagePipeline: unit{t: pipeline.Type{}},
	lang.StageWebhook:  unit{t: webhook.Type{}},
}

// noDeadlines is embedded by the types that arm and handle no deadline of their own.
type noDeadlines struct{}

func (noDeadlines) arm(*lang.Stage, *model.StageRun, time.Time) {}
func (noDeadlines) deadline(string) deadlineHandler             { return nil }
