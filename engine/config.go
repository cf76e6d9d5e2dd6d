// Package engine is the pure domain of pipeline-action: the config model and its
// loader, the facts about a subject, runs, and Step, which turns (config, state,
// input, facts, now) into (new state, effects) without any I/O.
package engine

import "fmt"

// Pos is a 1-based position in a config file.
type Pos struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Config is a loaded `.github/pipelines.yaml`.
type Config struct {
	Version   int
	Pipelines []*Pipeline // in file order
	// BlobOID is the git blob the config was read from; runs pin it.
	BlobOID string
}

// Pipeline returns the pipeline called name, or nil.
func (c *Config) Pipeline(name string) *Pipeline {
	for _, p := range c.Pipelines {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Pipeline is one named pipeline.
type Pipeline struct {
	Name        string
	Description string
	Pos         Pos
	Trigger     Trigger
	OnEvents    []EventReaction // in file order
	Stages      []*Stage        // in file order; the first is where a run starts
}

// Stage returns the stage with the given id, or nil.
func (p *Pipeline) Stage(id string) *Stage {
	for _, s := range p.Stages {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Reaction returns the reaction to event ("pull_request.closed"), or nil.
func (p *Pipeline) Reaction(event string) *EventReaction {
	for i := range p.OnEvents {
		if p.OnEvents[i].Event == event {
			return &p.OnEvents[i]
		}
	}
	return nil
}

// Trigger says which event starts a run, and on which subjects.
type Trigger struct {
	Event string // "pull_request.opened"
	Pos   Pos
	// Conditions; the zero value of each matches everything.
	BaseBranch string   // the PR's base branch must equal this
	Labels     []string // every one must be present on the subject
	Draft      *bool    // the PR's draft flag must equal this
	Author     string   // the subject's author login must equal this
}

// Reaction actions of on_events.
const (
	ReactReevaluate = "reevaluate_gates"
	ReactCancel     = "cancel"
)

// EventReaction is one entry of on_events.
type EventReaction struct {
	Event  string // "pull_request.closed"
	Action string // ReactReevaluate | ReactCancel
	Pos    Pos
}

// StageType is the kind of a stage.
type StageType string

// Stage types the engine executes.
const (
	StageGate   StageType = "gate"
	StageAction StageType = "action"
)

// Actions of action stages.
const (
	ActionMergePR     = "merge_pr"
	ActionAddLabel    = "add_label"
	ActionRemoveLabel = "remove_label"
	ActionComment     = "comment"
)

// Terminal transition targets.
const (
	TargetComplete = "complete"
	TargetFail     = "fail"
)

// Stage is one step of a pipeline.
type Stage struct {
	ID   string
	Type StageType
	Pos  Pos

	// gate
	Conditions []Condition
	OnPass     string // stage id or terminal target; "" = the next stage
	OnFail     string // "" = keep waiting

	// action
	Action    string
	Config    ActionConfig
	OnSuccess string // "" = the next stage
	OnFailure string // "" = keep the stage and retry on the next event
}

// ActionConfig holds the config of an action stage; which fields apply depends on the action.
type ActionConfig struct {
	Method       string   // merge_pr: merge | squash | rebase (default merge)
	DeleteBranch bool     // merge_pr
	Labels       []string // add_label, remove_label (`label:` or `labels:`)
	Body         string   // comment
}

// Condition is one check of a gate stage, compiled at load.
type Condition struct {
	Check    string
	Optional bool // shown, never blocks
	Pos      Pos
	Eval     Check
}
