package lang

import (
	"fmt"
	"sync"
	"time"
)

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
	Settings  Settings
	Agents    []*Agent    // in file order
	Groups    []*Group    // in file order
	Pipelines []*Pipeline // in file order (files in name order when several are merged)
	// SharedDefaults are the defaults of the shared variables pipelines declare in
	// `session_variables:`, the first declaration of each name; `shared.<name>` reads one
	// until set_shared sets it.
	SharedDefaults []KeyValue
	// Warnings are findings that do not stop loading (an unreachable stage, an unused
	// sub-pipeline); `validate --strict` treats them as errors.
	Warnings ErrorList
	// BlobOID is the git blob the config was read from; runs pin it.
	BlobOID string
	// Pinned holds earlier configs by blob OID: a run started under another config
	// finishes with that definition (snapshot on start). Nil or missing entries mean
	// the run follows this config.
	Pinned map[string]*Config
}

// PipelineRef names the definition a run follows; the evaluator's runs implement it.
type PipelineRef interface {
	// PipelineRef returns the blob id of the config the run started under ("" when
	// none is pinned) and the name of its pipeline.
	PipelineRef() (configOID, pipeline string)
}

// PipelineFor returns the definition run follows: its pipeline in the config it started
// under when that is pinned, else in c. Nil if neither has it.
func (c *Config) PipelineFor(run PipelineRef) *Pipeline {
	oid, name := run.PipelineRef()
	if oid != "" && oid != c.BlobOID {
		if old := c.Pinned[oid]; old != nil {
			return old.Pipeline(name)
		}
	}
	return c.Pipeline(name)
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

// Agent returns the agent called name, or nil.
func (c *Config) Agent(name string) *Agent {
	for _, a := range c.Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Group returns the group called name, or nil.
func (c *Config) Group(name string) *Group {
	for _, g := range c.Groups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// Pipeline is one named pipeline.
// DefaultPriority is a pipeline's priority when its config gives none. Lower runs first,
// as in the designs the language follows, so that a pipeline can be put before or after the
// ones that say nothing.
const DefaultPriority = 100

type Pipeline struct {
	Name        string
	Description string
	DisplayName string
	Priority    int    // lower first (DefaultPriority when not given)
	Scope       string // ScopeSinglePR (default) | ScopeIssue | ScopeMultiPR
	Pos         Pos
	// Digest is a digest of the pipeline's definition as written: what it says, not how
	// (comments, layout, key order do not count), so a late start can tell since when it is.
	Digest string
	// HasTrigger is false for a pipeline without `trigger:`, which runs only as a sub-pipeline.
	HasTrigger bool
	Trigger    Trigger
	OnEvents   []EventReaction // in file order
	Context    []KeyValue      // `context:`, templates compiled
	Variables  []KeyValue      // `variables:`
	Stages     []*Stage        // in file order; the first is where a run starts
	OnComplete []ActionItem
	OnError    []ActionItem
	// Dormant is `enabled: false`: the pipeline starts on a subject only once enabled
	// there (set_variable with `pipeline:`, `/pipeline enable`).
	Dormant bool
	// SessionVariables is `session_variables:`, the shared variables it declares with
	// their defaults (Config.SharedDefaults holds them for every pipeline).
	SessionVariables []KeyValue
	// KeepUpToDate is `keep_up_to_date:`; nil when the pipeline's pull requests are brought
	// up to date only when their merge comes.
	KeepUpToDate *KeepUpToDate
	// StageRefs are the stages its expressions and templates name (`stages.<id>`), where
	// they are written: the loader checks that each is a stage or branch of the pipeline.
	StageRefs []StageRef

	memo sync.Map // Memo's values, by key
}

// Memo returns the value build makes of the pipeline for key, building it once per loaded
// pipeline, however many evaluations read it: a pipeline does not change once loaded. Safe
// for concurrent use.
func (p *Pipeline) Memo(key any, build func() any) any {
	if v, ok := p.memo.Load(key); ok {
		return v
	}
	v, _ := p.memo.LoadOrStore(key, build())
	return v
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
	If         *Expr    // `if:` expression over the event (`trigger.*`)
}

// Reaction actions of on_events.
const (
	ReactReevaluate = "reevaluate_gates"
	ReactCancel     = "cancel"
)

// EventReaction is one entry of on_events.
type EventReaction struct {
	Event  string // "pull_request.closed"
	Action string // ReactReevaluate | ReactCancel | ReactInvalidateAndRestart | ReactNotify | ReactWakeAgent
	Pos    Pos
	// invalidate_and_restart: the stages whose results no longer count, and where to
	// restart ("current" = the current stage).
	Invalidate  []string
	RestartFrom string
	Notify      *Notify // notify
	Agent       string  // wake_agent: the agent role to wake (default: the current stage's)
	Message     *Template
	ValuePos    map[string]Pos // position of each key's value as written
}

// PosOf returns the position of key's value in the reaction, or the reaction's own.
func (r *EventReaction) PosOf(key string) Pos {
	if p, ok := r.ValuePos[key]; ok {
		return p
	}
	return r.Pos
}

// PosOf returns the position of key's value in the stage, or the stage's own.
func (s *Stage) PosOf(key string) Pos {
	if p, ok := s.ValuePos[key]; ok {
		return p
	}
	return s.Pos
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

// Stage is one step of a pipeline. Which fields apply depends on Type; a parallel
// stage's branches are Stages too (type agent, action or pipeline).
type Stage struct {
	ID          string
	Type        StageType
	Pos         Pos
	Description string
	// ValuePos holds the position of each key's value as written, so that a problem
	// found after loading (an unknown agent, group or sub-pipeline) points at it.
	ValuePos map[string]Pos

	// common to several types
	Condition  *Predicate    // agent, branches: run only when it holds
	SkipTo     string        // where to go when Condition does not hold ("" = the next stage)
	Timeout    time.Duration // 0 = none
	OnTimeout  *Rule         // then: fail | escalate | cancel | extend
	OnComplete string        // agent, human, parallel, delay, pipeline: "" = the next stage
	OnError    *ErrorPolicy  // agent, pipeline
	Context    []KeyValue    // pipeline (passed to the child), agent
	Values     []KeyValue    // agent and webhook `config:` as written (action config is ActionConfig)

	// agent
	Agent           string
	AgentAction     string // `action:` of an agent stage (review, implement, …)
	ContinueSession bool
	Verdicts        map[string]*Rule // on_followup, on_revise, on_reject, on_approve, on_failed
	OutputsSchema   *OutputsSchema   // what its report's outputs must look like; nil: anything

	// gate: AnyOf holds `any_of:` groups; the gate passes when Conditions all pass and
	// each group has one passing condition.
	AnyOf      [][]Condition
	OnFailRule *Rule // on_fail in mapping form ({goto, max_iterations, then} or {when, action, notify})

	// human
	WaitFor    string // approval | comment | label | dismiss
	From       string // group name
	Count      int    // default 1
	OnEnter    *Template
	Reminder   *Reminder
	AutoAssign bool
	Pattern    string // wait_for comment: a regular expression the comment must match
	WaitLabel  string // wait_for label: the label
	// KeepOnPush is `dismiss_stale: false`: what people gave at the stage still counts
	// after a push (never after a change of base). By default a push makes it stale, as
	// GitHub's "dismiss stale approvals" does.
	KeepOnPush bool

	// parallel
	Join        string // "all" | "any" | a number N
	JoinCount   int    // N when Join is a number
	Branches    []*Stage
	OnAnyReject *Rule

	// delay
	Duration time.Duration
	Poll     *Poll

	// action: on_conflict and on_ci_failure of merge_pr
	OnConflict  *Rule
	OnCIFailure *Rule

	// webhook
	Request      *Request
	ExpectStatus int // default 200

	// pipeline
	Pipeline string

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

// FromCodeOwners is the `from:` of a human stage that waits for the code owners of the
// changed files instead of a group; no group may take the name.
const FromCodeOwners = "codeowners"

// ActionConfig holds the config of an action stage; which fields apply depends on the action.
type ActionConfig struct {
	Method       string // merge_pr: merge | squash | rebase (default merge)
	DeleteBranch bool   // merge_pr
	WhenBehind   string // merge_pr: update | escalate ("" is update)
	// UpdateMethod is how merge_pr (when_behind: update) and update_branch bring a branch up
	// to date: UpdateMerge ("" too) or UpdateRebase.
	UpdateMethod string
	// CommitTitle and CommitMessage are merge_pr's commit title and message (templates);
	// nil leaves them to GitHub.
	CommitTitle, CommitMessage *Template
	Labels                     []string // add_label, remove_label (`label:` or `labels:`); label: `add:`
	Remove                     []string // label: `remove:`
	Body                       string   // comment (a template when BodyTemplate is set)

	BodyTemplate *Template // comment, create_issue: body with {{ }}
	Title        *Template // create_issue
	Target       *Template // notify, comment: group, login, "pr", "issue"
	Message      *Template // notify
	Issue        *Template // close_issue: the issue number (e.g. "{{ context.pr_number | linked_issue }}")
	PR           *Template // merge_pr in multi-PR pipelines: `pr_number:`
	Reviewers    []string  // request_reviewers: logins
	Teams        []string  // request_reviewers: team slugs
	Group        string    // request_reviewers, assign: a group name
	Assignees    []string  // assign
	Name         string    // set_variable, set_shared: the variable
	Value        Value     // set_variable, set_shared: its value (templates filled when set)
	Pipeline     string    // set_variable: the pipeline whose `enabled` it sets (seed 002)
}

// Condition is one check of a gate stage, compiled at load.
type Condition struct {
	Check    string
	Optional bool // shown, never blocks
	Pos      Pos
	Eval     Check
	// Builtin is the built-in check that compiled Eval when Check names a custom gate
	// (settings.custom_gates); "" when Check is built in.
	Builtin string
}

// BuiltinCheck returns the built-in check that compiled c: what reads its facts.
func (c Condition) BuiltinCheck() string {
	if c.Builtin != "" {
		return c.Builtin
	}
	return c.Check
}
