package ghfake

import (
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/act"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The types of the fake's Go API are its parts': the world's (package world), its changes'
// (package act), the webhook payloads' (package shapes) and the token scopes' (package perms).
// They are named here so that tests and the simulator need package ghfake alone.

// BotLogin is the REST login of the identity the action runs as.
const BotLogin = world.BotLogin

// Protection is the protection of one base branch and the repository's merge settings.
type Protection = world.Protection

// GitPush is one commit someone pushes with git (PushCommit).
type GitPush = world.GitPush

// CommitView is a commit as tests assert on it (BranchLog).
type CommitView = world.CommitView

// ErrRuleViolation is the refusal of a git push by a ruleset.
var ErrRuleViolation = world.ErrRuleViolation

// What the code under test did, as tests judge it.
type (
	Dispatch     = world.Dispatch
	MergeRecord  = world.MergeRecord
	ReviewRecord = world.ReviewRecord
	CheckRecord  = world.CheckRecord
	StatusRecord = world.StatusRecord
)

// Event is a webhook delivery as GitHub would send it for a change of the world.
type Event = shapes.Event

// obj is a JSON object.
type obj = shapes.Obj

// What tests pass to the world's changes and read of it.
type (
	PROptions    = act.PROptions
	IssueOptions = act.IssueOptions
	WorkflowRun  = act.WorkflowRun
	PRView       = act.PRView
	IssueView    = act.IssueView
	CommentView  = act.CommentView
	StatusView   = act.StatusView
	Mark         = act.Mark
)

// Permissions are a token's scopes by GitHub App permission name (pull_requests, not the
// workflow's pull-requests) → "read" or "write"; a scope not named is none. metadata is
// always read, as for every installation token.
type Permissions = perms.Permissions
