package lang

import (
	"regexp"
	"strings"
	"sync"
)

// This file holds the parts of the language that the evaluator reads as well as the
// loader: action names, joins, waits, the spelling of variable names and questions a
// pipeline or stage answers.

// Actions that set variables.
const (
	ActionSetVariable = "set_variable"
	ActionSetShared   = "set_shared"
)

// ActionUpdateBranch merges the base branch's head into the pull request's head branch
// (GitHub's update-branch call); merge_pr's `when_behind` says whether it does that itself.
const (
	ActionUpdateBranch = "update_branch"
	WhenBehindUpdate   = "update"
	WhenBehindEscalate = "escalate"
)

// How GitHub brings a branch up to date (`update_method`): a merge commit of the base into
// the head, or the head's commits replayed on the base.
const (
	UpdateMerge  = "merge"
	UpdateRebase = "rebase"
)

// KeepsUpToDate reports whether a pipeline of c has keep_up_to_date: pushes to base
// branches then matter.
func (c *Config) KeepsUpToDate() bool {
	for _, p := range c.Pipelines {
		if p.KeepUpToDate != nil {
			return true
		}
	}
	return false
}

// KeepUpToDate is a pipeline's `keep_up_to_date:`: its runs' pull requests are brought up
// to date as soon as their base moves, one per base at a time.
type KeepUpToDate struct {
	Method string // UpdateMerge | UpdateRebase
	Pos    Pos
}

// VariableName is the spelling of a variable's name: what `variables.<name>` can read.
var VariableName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`) })

// SameLabel reports whether a and b name the same label, as GitHub compares label names:
// without regard to case.
func SameLabel(a, b string) bool { return strings.EqualFold(a, b) }

// OnIssues reports whether p's runs have an issue as their subject: it says `scope: issue`,
// or its trigger is an issues.* event (as feature-dev's is, without a scope).
func (p *Pipeline) OnIssues() bool {
	return p.Scope == ScopeIssue || p.Scope == ScopeMultiPR || strings.HasPrefix(p.Trigger.Event, "issues.")
}

// AllConditions lists the conditions of a gate stage, those of its any_of groups included.
func (s *Stage) AllConditions() []Condition {
	out := append([]Condition(nil), s.Conditions...)
	for _, g := range s.AnyOf {
		out = append(out, g...)
	}
	return out
}

// IsMultiPR reports whether p's runs are multi-PR runs.
func (p *Pipeline) IsMultiPR() bool { return p != nil && p.Scope == ScopeMultiPR }

// PollSkipRemaining is the `on_ready` of a delay's poll that ends the delay early and
// moves on to on_complete.
const PollSkipRemaining = "skip_remaining_delay"

// Human actions a human stage waits for.
const (
	WaitApproval = "approval" // an approving review from the group
	WaitComment  = "comment"  // a comment (matching `pattern`, if set)
	WaitLabel    = "label"    // `label` added to the subject
	WaitDismiss  = "dismiss"  // a blocking review dismissed
)

// Joins of a parallel stage besides a number of branches.
const (
	JoinAll = "all"
	JoinAny = "any"
)

// ThenExtend is the `then` of on_timeout that extends the timeout.
const ThenExtend = "extend"

// GroupRef is implemented by compiled gate checks that name a group of `groups:`
// (`check: human_approved` with `from:`); gates.GroupRef is the same interface.
type GroupRef interface {
	Group() string // "" when the check names none
}
