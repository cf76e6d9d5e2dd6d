package settle

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// Intents is what an evaluation knows of write-ahead effects.
type Intents struct {
	// Deadline is the invocation's (Input.Deadline): intents written now are in flight
	// until then.
	Deadline time.Time
	// Unknown holds the intents reconcile dropped because their outcome stayed unknown and
	// their invocation has ended, by key: asked for again, their effect gets the next Try.
	Unknown map[string]model.Intent
	// Outcomes are Input.Outcomes: what this invocation knows of effects it performed.
	Outcomes []model.Outcome
}

// Kernel is what settling needs of the evaluation.
type Kernel interface {
	Now() time.Time
	Logf(format string, args ...any)
	Facts() *model.Facts
	Config() *lang.Config
	// Runs are the runs of the state being evaluated.
	Runs() []*model.Run
	// Intents is the evaluation's knowledge of write-ahead effects; settling keeps it.
	Intents() *Intents
	Moves
	Types
}

// Moves are the kernel's records and moves of a run that settling asks for.
type Moves interface {
	// FindEffect is the run whose current stage (or a branch of it) asked for the effect
	// of key, and that stage; nil when none did.
	FindEffect(key string) (*model.Run, *lang.Stage)
	// NoteRefused records that run's effect was refused in this evaluation.
	NoteRefused(run *model.Run)
	// Escalate stops run to wait for a person.
	Escalate(run *model.Run, why string)
	// Leave leaves stage with status and goes to target.
	Leave(run *model.Run, stage *lang.Stage, status model.StageStatus, target, why string)
	// Stage is the stage or parallel branch of run's pipeline with id, nil when the
	// pipeline or the stage is gone from the config.
	Stage(run *model.Run, id string) *lang.Stage
}

// Types is how the stage types read what became of their effects.
type Types interface {
	// Settled hands o to the type of s, which decides; false when the type reads no
	// outcome.
	Settled(run *model.Run, s *lang.Stage, o model.Outcome) bool
	// AgentSettled hands o, the outcome of agent stage s's dispatch, to the agent type.
	AgentSettled(run *model.Run, s *lang.Stage, o model.Outcome)
	// Trace is what GitHub shows of dispatch it of agent stage s.
	Trace(run *model.Run, s *lang.Stage, it model.Intent) (seen agent.Trace, workflowRun int64, why string)
	// Own is the type of s when it reads the outcomes of its own effects, else nil;
	// OwnDecided carries out its decision of run at s.
	Own(s *lang.Stage) stage.Effects
	OwnDecided(run *model.Run, s *lang.Stage, decide func(stage.Context) stage.Decision)
	// ActionFailed applies an action stage's failure.
	ActionFailed(run *model.Run, s *lang.Stage, why string)
	// ActionDoneWhy says what action stage s did, for the history.
	ActionDoneWhy(s *lang.Stage) string
	// NotifyAgentUnknown settles a notify_agent dispatch whose outcome is unknown, and
	// reports whether it was one.
	NotifyAgentUnknown(run *model.Run, s *lang.Stage, it model.Intent) bool
	// OnRunPR makes the facts those of the pull request it is about, until the returned
	// function is called; nil when they already are.
	OnRunPR(run *model.Run, it model.Intent) func()
}
