package lang

import "time"

// This file holds the parts of the config model beyond the walking skeleton: the whole
// language of docs/language.md. Loading fills them; the engine
// executes only what Step supports and stops a run loudly at anything else.

// Stage types beyond gate and action.
const (
	StageAgent    StageType = "agent"
	StageHuman    StageType = "human"
	StageParallel StageType = "parallel"
	StageDelay    StageType = "delay"
	StageWebhook  StageType = "webhook"
	StagePipeline StageType = "pipeline"
)

// StageTypes lists every stage type of the language, in the reference's order.
var StageTypes = []StageType{StageAgent, StageGate, StageHuman, StageParallel, StageDelay, StageAction, StageWebhook, StagePipeline}

// Actions beyond the skeleton's four.
const (
	ActionCloseIssue       = "close_issue"
	ActionCreateIssue      = "create_issue"
	ActionLabel            = "label" // add and/or remove: config {add: [...], remove: [...]}
	ActionNotify           = "notify"
	ActionRequestReviewers = "request_reviewers"
	ActionAssign           = "assign"
)

// Terminal targets beyond complete and fail.
const (
	TargetCancel   = "cancel"
	TargetEscalate = "escalate"
)

// TargetCancelled is the pseudo-target history shows when a run is cancelled.
const TargetCancelled = "cancelled"

// Reactions beyond reevaluate_gates and cancel.
const (
	ReactInvalidateAndRestart = "invalidate_and_restart"
	ReactNotify               = "notify"
	ReactWakeAgent            = "wake_agent"
)

// Scopes of a pipeline.
const (
	ScopeSinglePR = "single-pr"
	ScopeIssue    = "issue"
	ScopeMultiPR  = "multi-pr"
)

// Agent dispatch kinds.
const (
	DispatchWorkflow           = "workflow"
	DispatchRepositoryDispatch = "repository_dispatch"
	DispatchComment            = "comment"
	DispatchLabel              = "label"
	DispatchAssign             = "assign"
)

// Settings is the top-level `settings:` block.
type Settings struct {
	Pos          Pos
	MaxNesting   int    // sub-pipeline nesting limit; default 3
	StateBranch  string // default "pipeline-action/state"
	AllowCommand bool   // `allow_commands`: the `command` gate may run (never on fork code)
	// WebhookHosts are the hosts webhook stages may call (`webhooks: {allow: [...]}`);
	// empty means any host written literally in a stage's url (the address guard still
	// applies).
	WebhookHosts []string
	// ChatOps says who may use `/pipeline` commands (`chatops: {permission: write, from: [group]}`).
	ChatOpsPermission string   // read | triage | write | maintain | admin; default write
	ChatOpsFrom       []string // group names; empty = anyone with the permission
	ChatOpsFromPos    Pos      // where ChatOpsFrom is written
	// WebhookAllowPrivate (`webhooks: {allow_private: true}`) lets webhook stages reach
	// loopback, private and shared (CGNAT) addresses; never link-local, a cloud metadata
	// service or other special ones.
	WebhookAllowPrivate bool
	// AllowContributors (`approvals: {allow_contributors: true}`) lets the authors and
	// committers of a pull request's commits approve it; by default they do not.
	AllowContributors bool
	// StatusCheck (`status_check: true`) keeps a commit status `pipeline-action/<pipeline>`
	// on a pull request's head for each pipeline that runs on it, for branch protection.
	StatusCheck bool
}

// Default settings.
const (
	DefaultMaxNesting  = 3
	DefaultStateBranch = "pipeline-action/state"
)

// Agent is one entry of `agents:`: a role and how to dispatch it.
type Agent struct {
	Name      string
	Pos       Pos
	Dispatch  string // DispatchWorkflow | ...
	Workflow  string // workflow: file name (.yml) of a workflow_dispatch workflow
	Ref       string // workflow: ref to run it on (default: the default branch)
	EventType string // repository_dispatch: event_type
	Body      string // comment: the comment text (a mention such as "@claude implement this")
	Label     string // label: the label to add
	Assignee  string // assign: the login to assign
	// Login is the agent's GitHub login: its review on the run's head is its stage's
	// verdict (ReviewLogin).
	Login string
	// Listener is what receives a comment or label dispatch: ListenerWorkflow (also when
	// "") or ListenerApp.
	Listener string
}

// ReviewLogin is the login whose reviews are a's verdicts: its `login`, else the assignee
// of an assign dispatch; "" when a has none.
func (a *Agent) ReviewLogin() string {
	if a.Login != "" {
		return a.Login
	}
	return a.Assignee
}

// What receives an agent's comment or label dispatch.
const (
	ListenerWorkflow = "workflow" // a GitHub Actions workflow: not started by GITHUB_TOKEN's events
	ListenerApp      = "app"      // a GitHub App: receives the event whatever token caused it
)

// Group is one entry of `groups:`: named humans.
type Group struct {
	Name  string
	Pos   Pos
	Users []string
	Teams []string // org/slug
}

// Value is a config value that may hold templates: a scalar, a list or a mapping,
// as written, with positions. Templates (`{{ … }}`) in strings are compiled at load.
type Value struct {
	Pos  Pos
	Kind ValueKind
	// Scalar holds the text of a scalar (for KindString, the raw text; Template is set
	// when the text contains `{{`). Bool, int and float scalars keep their text too.
	Scalar   string
	Template *Template
	List     []Value
	Map      []KeyValue // in file order
}

// ValueKind is the shape of a Value.
type ValueKind int

// Value kinds.
const (
	KindNull ValueKind = iota
	KindString
	KindInt
	KindFloat
	KindBool
	KindList
	KindMap
)

// KeyValue is one entry of a mapping Value.
type KeyValue struct {
	Key    string
	KeyPos Pos
	Value  Value
}

// Predicate is a stage or branch `condition:`: either an expression, or a structured
// test (`labels_include`, `paths_match`) combined with `any` / `all`.
type Predicate struct {
	Pos           Pos
	Expr          *Expr       // a condition written as a string
	Any           []Predicate // any of these holds
	All           []Predicate // all of these hold
	LabelsInclude []string    // the subject carries every one of these labels
	PathsMatch    []string    // some changed file matches one of these globs (doublestar syntax)
}

// Rule is the rich form of a transition: a loop back (`goto` with
// `max_iterations`, then `then`), or a handler that notifies, labels and then moves
// on. A string written where a Rule is allowed fills Goto alone.
type Rule struct {
	Pos           Pos
	Goto          string     // stage id or terminal target
	MaxIterations int        // 0 = unbounded (only where the language allows it)
	Then          string     // where to go once MaxIterations is spent (or after a handler)
	Context       []KeyValue // values merged into the run's context (e.g. feedback)
	Notify        *Notify
	Labels        []string
	// on_fail's conditional form: {when: {check_failed: X}, action: notify_and_wait, notify: …}
	WhenCheckFailed string
	Action          string
	// on_timeout: `then: extend` with `extend: 24h` and a maximum of extensions.
	Extend        time.Duration
	MaxExtensions int
}

// Notify is a notification: to whom, and what.
type Notify struct {
	Pos     Pos
	Target  *Template // group name, login, "pr", or a template such as "{{ context.head_branch | agent_for_branch }}"
	Message *Template
}

// ErrorPolicy is `on_error:` of an agent or pipeline stage.
type ErrorPolicy struct {
	Pos   Pos
	Retry int    // attempts after the first
	Then  string // target once retries are spent (default fail)
}

// Reminder is `notify.reminder` of a human stage.
type Reminder struct {
	Pos          Pos
	Interval     time.Duration
	Message      *Template
	MaxReminders int
}

// Request is the HTTP request of a webhook stage.
type Request struct {
	Pos     Pos
	URL     *Template
	Method  string // default POST
	Headers []Header
	Body    Value
}

// Header is one request header of a webhook stage: its value is text with templates and
// references to secrets (`{{ secrets.NAME }}`), which only the shell fills in.
type Header struct {
	Key   string
	Pos   Pos
	Parts []HeaderPart
}

// HeaderPart is a piece of a header's value: text (templates allowed), or a secret.
type HeaderPart struct {
	Text   *Template
	Secret string // the secret's name, upper case
}

// Poll is `poll:` of a delay stage.
type Poll struct {
	Pos       Pos
	Interval  time.Duration
	Condition *Expr
	OnReady   string // "skip_remaining_delay" or a stage id
}

// ActionItem is one entry of a pipeline's `on_complete` / `on_error` lists, e.g.
// `- close_issue: "{{ … }}"`, `- comment: {target: pr, message: …}`, `- label: needs-human`,
// `- notify: maintainers`.
type ActionItem struct {
	Pos    Pos
	Action string // close_issue | comment | label | notify | create_issue | request_reviewers | assign
	Args   Value
}

// Verdicts an agent report may carry (docs/language.md, agent stages).
const (
	VerdictComplete = "complete"
	VerdictFollowup = "followup"
	VerdictFailed   = "failed"
	VerdictApprove  = "approve"
	VerdictReject   = "reject"
	VerdictRevise   = "revise"
)

// Rejects reports whether verdict asks for changes (a parallel stage's on_any_reject
// applies to a branch that ended on it).
func Rejects(verdict string) bool {
	return verdict == VerdictReject || verdict == VerdictRevise || verdict == VerdictFollowup
}

// Duration keys take Go durations plus days: 30s, 5m, 2h, 72h, 7d.
