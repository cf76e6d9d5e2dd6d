package model

import "time"

// EffectKind says what an effect does on GitHub.
type EffectKind string

// Effect kinds.
const (
	EffectMerge       EffectKind = "merge_pr"
	EffectAddLabel    EffectKind = "add_label"
	EffectRemoveLabel EffectKind = "remove_label"
	EffectComment     EffectKind = "comment"
)

// Effect is one change to make on GitHub. An effect that GitHub does not deduplicate
// (a merge, a comment) is WriteAhead: the state Step or Settle returned holds its intent,
// and the caller must save that state (compare-and-swap) before performing it, and
// perform it only if its save won. Other effects (labels) are idempotent and may be
// performed at once.
type Effect struct {
	Key     string     `json:"key"` // <run id>/<stage>/<attempt>/<kind>
	Run     string     `json:"run"`
	Stage   string     `json:"stage"`
	Kind    EffectKind `json:"kind"`
	Number  int        `json:"number"` // PR or issue number
	SHA     string     `json:"sha,omitempty"`
	HeadRef string     `json:"head_ref,omitempty"` // merge_pr with Delete
	// HeadRepo is the repository (owner/name) HeadRef is a branch of. The engine asks for a
	// deletion only of a branch of the PR's own repository that is not its default branch.
	HeadRepo string   `json:"head_repo,omitempty"`
	Method   string   `json:"method,omitempty"`
	Delete   bool     `json:"delete_branch,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	Body     string   `json:"body,omitempty"`
	// Agent dispatches: the agent, its dispatch kind and what that kind needs.
	Agent     string            `json:"agent,omitempty"`
	Dispatch  string            `json:"dispatch,omitempty"`
	Workflow  string            `json:"workflow,omitempty"`
	Ref       string            `json:"ref,omitempty"`
	EventType string            `json:"event_type,omitempty"`
	Inputs    map[string]string `json:"inputs,omitempty"`    // workflow inputs; repository_dispatch client_payload
	Assignees []string          `json:"assignees,omitempty"` // assign dispatches and the assign action
	// label: Labels are added, Remove removed.
	Remove []string `json:"remove,omitempty"`
	// create_issue: the new issue's title (Body, Labels). merge_pr: the commit's title
	// and Body its message; "" leaves them to GitHub.
	Title string `json:"title,omitempty"`
	// request_reviewers: logins and team slugs.
	Reviewers []string `json:"reviewers,omitempty"`
	Teams     []string `json:"teams,omitempty"`
	// WriteAhead: save the returned state before performing the effect; see Intent.
	WriteAhead bool `json:"write_ahead,omitempty"`
	// Webhook is the request of a webhook stage.
	Webhook *WebhookCall `json:"webhook,omitempty"`
	// Repo is the repository (owner/name) of pull request Number when it is not the
	// subject's: a merge of a multi-PR run's pull request in another repository.
	// "" means the subject's repository.
	Repo string `json:"repo,omitempty"`
	// RunID is the workflow run whose failed jobs a rerun re-runs.
	RunID int64 `json:"run_id,omitempty"`
}

// Outcome is what happened when the shell performed an effect.
type Outcome struct {
	Key string
	// Err is empty on success. Otherwise it says, for humans, why GitHub refused.
	Err string
	// Permanent marks a refusal that trying again cannot fix (the stage's on_failure applies);
	// otherwise the stage is retried on the next event.
	Permanent bool
	// Unknown marks an error after which the request may still have been performed: no
	// answer in time, a 5xx, a connection cut after the request left. An effect held by an
	// intent is then not asked for again blindly: the intent stays, and later events
	// reconcile it from what GitHub shows. Without Unknown, an error
	// means GitHub did not perform the request.
	Unknown bool
	// Escalate marks a refusal only a person can lift: a setting of the repository (branch
	// protection, allowed merge methods, the merge queue) the config does not meet. The run
	// escalates once with Err rather than trying again on every event.
	Escalate bool
	// HeadMoved marks a refusal because the pull request's head is no longer the one the
	// effect expected: nothing was done, and whoever moved it caused its own event.
	HeadMoved bool
	// RetryAt is when a rate limit that refused the effect ends (GitHub's reset or
	// retry-after): the stage waits for it as a deadline, so that the sweep tries again
	// when no event comes. Zero when no rate limit refused it.
	RetryAt time.Time
	// Response is what a webhook call got back, when it got an answer.
	Response *WebhookResponse
	// WorkflowRun is the id of the workflow run a workflow dispatch started, when GitHub
	// returned it.
	WorkflowRun int64
	// Queued: the merge's base requires GitHub's merge queue, and the pull request was put in
	// it at the effect's head instead (GitHub merges it when the queue's checks pass).
	Queued bool
}

// Input is the event an invocation handles, reduced to what the engine needs.
type Input struct {
	Key    string // unique per delivery; a re-run of the same delivery has the same key
	Event  string // "pull_request.opened", "status", "workflow_run.completed"
	Actor  string
	Number int // the subject's number
	// CommentID is the comment an issue_comment event names: a trigger on a comment reads
	// it from the facts by this id, not from the event's text.
	CommentID int64
	// Pipeline is the pipeline a workflow_dispatch of the action's workflow asks to start
	// on the subject (internal/manual).
	Pipeline string
	// Label is the label a `labeled` event says was added: only the adding of a label
	// its trigger names is a labeled trigger's own event (IsTriggerEvent).
	Label string
	// Deadline is when the invocation stops at the latest (its timeout). An intent it
	// writes is taken to be in flight until then (and IntentGrace); zero means
	// DefaultIntentLease from now.
	Deadline time.Time
	// Outcomes are the outcomes of write-ahead effects this invocation has performed but
	// whose recording was lost: its save after them conflicted, and it evaluates again on
	// the state it read anew. Step records each against its intent, if the state still
	// holds it, before anything else (as Settle would have); others are ignored.
	Outcomes []Outcome
	// Report is an agent's report (the `report` command); AgentFailure says an agent
	// ended without one. Each applies to the run and stage attempt it names.
	Report       *Report
	AgentFailure *AgentFailure
	// Nonces signs dispatch nonces and verifies those reports echo, with the state key;
	// nil without a key.
	Nonces NonceSigner
	// Visits is Result.Visits of the Step or Settle before, in the same invocation: the
	// stages entered in this event so far (see moveGuard).
	Visits map[string]int
	// DoneBy is Result.DoneBy of the Step or Settle before, in the same invocation.
	DoneBy string
}

// Effect kinds of these actions.
const (
	EffectLabel            EffectKind = "label" // Labels added, Remove removed
	EffectCloseIssue       EffectKind = "close_issue"
	EffectCreateIssue      EffectKind = "create_issue"
	EffectRequestReviewers EffectKind = "request_reviewers"
	EffectAssign           EffectKind = "assign"
)

// EffectDispatch starts an agent.
const EffectDispatch EffectKind = "dispatch"

// Keys of the list effects: <run>/<list>/<item>/<action>.
const (
	ListOnComplete = "on_complete"
	ListOnError    = "on_error"
)

// EffectUpdateBranch is the effect of ActionUpdateBranch. SHA is the head it expects.
const (
	EffectUpdateBranch EffectKind = "update_branch"
	// EffectDequeue takes pull request Number out of its base's merge queue.
	EffectDequeue EffectKind = "dequeue_pr"
	// EffectRerun re-runs the failed jobs of workflow run RunID (`/pipeline retest`).
	EffectRerun              EffectKind = "rerun_failed_jobs"
	MergeStateBehind                    = "BEHIND"
	MergeStateUnknown                   = "UNKNOWN"
	RuleWhenBehind                      = "when_behind"
	MergeUnknownWhy                     = "GitHub has not computed whether the pull request can be merged yet"
	MergeUnknownWho                     = "GitHub (computing mergeability; checked again on the next event or sweep)"
	UpdateBranchWho                     = "GitHub (bringing the branch up to date with its base)"
	UpdateBranchUpToDateDone            = "the branch is up to date with its base"
)
