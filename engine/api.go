package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/deploy"
	"github.com/org/pipeline-action/engine/internal/graph"
	"github.com/org/pipeline-action/engine/internal/httpfact"
	"github.com/org/pipeline-action/engine/internal/markdown"
	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/lang"
)

// The evaluator's shared model lives in package engine/internal/core, which the step loop
// and the stage types of this package build on. This file gives its types, constants and
// functions their engine names, for the packages that evaluate through engine.

// The state, its runs, the facts, effects, intents and deadlines.
type (
	AgentFailure      = core.AgentFailure
	Approval          = core.Approval
	CheckResult       = core.CheckResult
	CommandResult     = core.CommandResult
	Deadline          = core.Deadline
	DisownedComment   = core.DisownedComment
	DispatchTrace     = core.DispatchTrace
	Effect            = core.Effect
	EffectKind        = core.EffectKind
	Facts             = core.Facts
	Follower          = core.Follower
	GateResult        = core.GateResult
	GateStatus        = core.GateStatus
	HeadIndependent   = core.HeadIndependent
	IgnoredComment    = core.IgnoredComment
	Input             = core.Input
	Intent            = core.Intent
	Issue             = core.Issue
	IssueComment      = core.IssueComment
	Ledger            = core.Ledger
	LedgerEntry       = core.LedgerEntry
	LedgerStage       = core.LedgerStage
	Needs             = core.Needs
	NonceSigner       = core.NonceSigner
	Outcome           = core.Outcome
	OutputsFile       = core.OutputsFile
	PRRef             = core.PRRef
	PastRun           = core.PastRun
	People            = core.People
	PullRequest       = core.PullRequest
	Deployment        = deploy.Deployment
	Deployments       = deploy.Deployments
	HTTPAnswer        = httpfact.Answer
	HTTPAnswers       = httpfact.Answers
	Refusal           = core.Refusal
	Report            = core.Report
	Result            = core.Result
	Review            = core.Review
	Run               = core.Run
	RunStatus         = core.RunStatus
	StageRun          = core.StageRun
	StageStatus       = core.StageStatus
	Stale             = core.Stale
	State             = core.State
	TimelineEvent     = core.TimelineEvent
	Transition        = core.Transition
	WebhookCall       = core.WebhookCall
	WebhookHeader     = core.WebhookHeader
	WebhookHeaderPart = core.WebhookHeaderPart
	WebhookResponse   = core.WebhookResponse
)

// Statuses, kinds and limits of the model.
const (
	ActionNotifyAgent        = core.ActionNotifyAgent
	CheckFailure             = core.CheckFailure
	CheckPending             = core.CheckPending
	CheckSuccess             = core.CheckSuccess
	CmdApprove               = core.CmdApprove
	CmdCancel                = core.CmdCancel
	CmdRestart               = core.CmdRestart
	CmdRetry                 = core.CmdRetry
	CmdSkip                  = core.CmdSkip
	CmdStatus                = core.CmdStatus
	CmdStart                 = core.CmdStart
	CmdEnable                = core.CmdEnable
	CmdDisable               = core.CmdDisable
	CmdUnblock               = core.CmdUnblock
	Conflicting              = core.Conflicting
	DeadlineBranch           = core.DeadlineBranch
	DeadlineDelay            = core.DeadlineDelay
	DeadlineFollow           = core.DeadlineFollow
	DeadlineMergeability     = core.DeadlineMergeability
	DeadlinePoll             = core.DeadlinePoll
	DeadlineReminder         = core.DeadlineReminder
	DeadlineRetry            = core.DeadlineRetry
	DeadlineTimeout          = core.DeadlineTimeout
	DefaultChatOpsPermission = core.DefaultChatOpsPermission
	DefaultIntentLease       = core.DefaultIntentLease
	EffectAddLabel           = core.EffectAddLabel
	EffectAssign             = core.EffectAssign
	EffectCloseIssue         = core.EffectCloseIssue
	EffectComment            = core.EffectComment
	EffectCreateIssue        = core.EffectCreateIssue
	EffectDispatch           = core.EffectDispatch
	EffectLabel              = core.EffectLabel
	EffectMerge              = core.EffectMerge
	EffectRemoveLabel        = core.EffectRemoveLabel
	EffectRequestReviewers   = core.EffectRequestReviewers
	EffectUpdateBranch       = core.EffectUpdateBranch
	EffectWebhook            = core.EffectWebhook
	FollowInterval           = core.FollowInterval
	GateError                = core.GateError
	GateFail                 = core.GateFail
	GatePass                 = core.GatePass
	GatePending              = core.GatePending
	IntentGrace              = core.IntentGrace
	IssueClosed              = core.IssueClosed
	IssueOpen                = core.IssueOpen
	LedgerAgent              = core.LedgerAgent
	LedgerHuman              = core.LedgerHuman
	LinkedFromBody           = core.LinkedFromBody
	ListOnComplete           = core.ListOnComplete
	ListOnError              = core.ListOnError
	MaxDisowned              = core.MaxDisowned
	MaxDispatchInputs        = core.MaxDispatchInputs
	MaxDispatchPayload       = core.MaxDispatchPayload
	MaxHistory               = core.MaxHistory
	HistoryHead              = core.HistoryHead
	KindLoop                 = core.KindLoop
	KindRetry                = core.KindRetry
	KindError                = core.KindError
	MaxIntentLease           = core.MaxIntentLease
	MaxRefused               = core.MaxRefused
	MaxSessionID             = core.MaxSessionID
	MaxVariableBytes         = core.MaxVariableBytes
	MaxVariables             = core.MaxVariables
	Mergeable                = core.Mergeable
	OutputSessionID          = core.OutputSessionID
	PRClosed                 = core.PRClosed
	PRMerged                 = core.PRMerged
	PROpen                   = core.PROpen
	ReviewApproved           = core.ReviewApproved
	ReviewChangesRequested   = core.ReviewChangesRequested
	ReviewCommented          = core.ReviewCommented
	ReviewDismissed          = core.ReviewDismissed
	ReviewPending            = core.ReviewPending
	RunCancelled             = core.RunCancelled
	RunCompleted             = core.RunCompleted
	RunEscalated             = core.RunEscalated
	RunFailed                = core.RunFailed
	RunRunning               = core.RunRunning
	RunWaiting               = core.RunWaiting
	StageActing              = core.StageActing
	StageCancelled           = core.StageCancelled
	StageFailed              = core.StageFailed
	StagePassed              = core.StagePassed
	StageRetrying            = core.StageRetrying
	StageSkipped             = core.StageSkipped
	StageStale               = core.StageStale
	StageSucceeded           = core.StageSucceeded
	StageWaiting             = core.StageWaiting
	TimelineBaseChanged      = core.TimelineBaseChanged
	TimelineConvertedToDraft = core.TimelineConvertedToDraft
	TimelineLabeled          = core.TimelineLabeled
	TimelineReadyForReview   = core.TimelineReadyForReview
	TimelineReopened         = core.TimelineReopened
	TimelineReviewDismissed  = core.TimelineReviewDismissed
	TimelineUnlabeled        = core.TimelineUnlabeled
	Unknown                  = core.Unknown
	WakeAction               = core.WakeAction
)

// AddFollower is core.AddFollower.
func AddFollower(st *State, f Follower) bool { return core.AddFollower(st, f) }

// CodeSpan is markdown.CodeSpan.
func CodeSpan(s string) string { return markdown.CodeSpan(s) }

// EditedByOther is core.EditedByOther.
func EditedByOther(edited bool, author string, editor string) bool {
	return core.EditedByOther(edited, author, editor)
}

// EffectMarker is core.EffectMarker.
func EffectMarker(key string) string { return core.EffectMarker(key) }

// FactsEnv is core.FactsEnv.
func FactsEnv(f *Facts) map[string]any { return core.FactsEnv(f) }

// FormatDuration is core.FormatDuration.
func FormatDuration(d time.Duration) string { return core.FormatDuration(d) }

// HasWriteAhead is core.HasWriteAhead.
func HasWriteAhead(effects []Effect) bool { return core.HasWriteAhead(effects) }

// InertCell is markdown.InertCell.
func InertCell(s string) string { return markdown.InertCell(s) }

// InertInline is markdown.InertInline.
func InertInline(s string) string { return markdown.InertInline(s) }

// InertText is markdown.InertText.
func InertText(s string) string { return markdown.InertText(s) }

// LatestReviews is core.LatestReviews.
func LatestReviews(reviews []Review) []Review { return core.LatestReviews(reviews) }

// Mermaid is graph.Mermaid.
func Mermaid(p *lang.Pipeline, run *Run) string { return graph.Mermaid(p, run) }

// NewAssociations is core.NewAssociations.
func NewAssociations(before *State, after *State) map[int][]Follower {
	return core.NewAssociations(before, after)
}

// NewRefAssociations is core.NewRefAssociations.
func NewRefAssociations(before *State, after *State) map[PRRef][]Follower {
	return core.NewRefAssociations(before, after)
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string { return core.Plural(n, one, many) }

// OneLine is markdown.OneLine.
func OneLine(s string) string { return markdown.OneLine(s) }

// ParentRef is core.ParentRef.
func ParentRef(parentRun string, stage string) string { return core.ParentRef(parentRun, stage) }

// ParsePRRef is core.ParsePRRef.
func ParsePRRef(v any) (PRRef, bool) { return core.ParsePRRef(v) }

// PostedEffects is core.PostedEffects.
func PostedEffects(body string) []string { return core.PostedEffects(body) }

// PeopleNeeded says which teams and permissions Step needs for st on facts f (people.Needed).
func PeopleNeeded(cfg *lang.Config, st *State, f *Facts) Needs { return people.Needed(cfg, st, f) }

// ReactionNeeds is core.ReactionNeeds.
func ReactionNeeds(cfg *lang.Config, st *State, in Input) Needs {
	return core.ReactionNeeds(cfg, st, in)
}

// RunNumber is core.RunNumber.
func RunNumber(id string) int { return core.RunNumber(id) }

// RunPR is core.RunPR.
func RunPR(run *Run) int { return core.RunPR(run) }

// RunPRRefs is core.RunPRRefs.
func RunPRRefs(run *Run, repo string) []PRRef { return core.RunPRRefs(run, repo) }

// RunPRs is core.RunPRs.
func RunPRs(run *Run) []int { return core.RunPRs(run) }

// SameIdentity is core.SameIdentity.
func SameIdentity(a string, b string) bool { return core.SameIdentity(a, b) }

// SignedNonce is core.SignedNonce.
func SignedNonce(signer NonceSigner, subject string, runID string, stageID string, nonce string) string {
	return core.SignedNonce(signer, subject, runID, stageID, nonce)
}
