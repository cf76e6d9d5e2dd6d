package engine

import (
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

// Worker is who works on s as the status shows it: its kind ("agent", "action",
// "pipeline") and its name, or "" and "" for a stage the step loop itself moves.
func Worker(s *lang.Stage) (kind, name string) {
	if t, ok := stageTypes[s.Type]; ok {
		return t.t.Worker(s)
	}
	return "", ""
}

// stageTypes are the types of stage Step executes, by their name in the language: each a
// package of its own under engine/stage, seen through the one adapter, unit.
var stageTypes = map[lang.StageType]unit{
	lang.StageAction:   {action.Type{}},
	lang.StageAgent:    {agent.Type{}},
	lang.StageDelay:    {delay.Type{}},
	lang.StageGate:     {gate.Type{}},
	lang.StageHuman:    {human.Type{}},
	lang.StageParallel: {parallel.Type{}},
	lang.StagePipeline: {pipeline.Type{}},
	lang.StageWebhook:  {webhook.Type{}},
}
