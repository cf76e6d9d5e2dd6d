package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// stageType is one type of stage as the step loop sees it: what entering a stage of
// the type arms, how a run standing at it is evaluated, and which deadlines of its own
// it handles. Each type implements it once, in the file of the type, and is listed in
// stageTypes; what every stage shares (its timeout, mergeability polls, following other
// pull requests) is in the tables of deadline.go.
type stageType interface {
	// arm adds the deadlines of the type's own to sr, whose stage was just entered at now.
	arm(stage *lang.Stage, sr *StageRun, now time.Time)
	// step evaluates run, which stands at stage, once, and reports whether it moved.
	step(e *eval, p *lang.Pipeline, run *Run, stage *lang.Stage) bool
	// deadline is the handler of a deadline kind of the type's own, or nil.
	deadline(kind string) deadlineHandler
}

// stageTypes are the types of stage Step executes, by their name in the language.
var stageTypes = map[lang.StageType]stageType{
	lang.StageAction:   actionType{},
	lang.StageAgent:    agentType{},
	lang.StageDelay:    delayType{},
	lang.StageGate:     gateType{},
	lang.StageHuman:    humanType{},
	lang.StageParallel: parallelType{},
	lang.StagePipeline: pipelineType{},
	lang.StageWebhook:  webhookType{},
}

// noDeadlines is embedded by the types that arm and handle no deadline of their own.
type noDeadlines struct{}

func (noDeadlines) arm(*lang.Stage, *StageRun, time.Time) {}
func (noDeadlines) deadline(string) deadlineHandler       { return nil }
