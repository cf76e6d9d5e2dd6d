package model

import "time"

// At reports whether the run stands at stage: its current stage, or a branch of its
// current (parallel) stage that is still open in this entry of it.
func (r *Run) At(stage string) bool {
	if r.Stage == stage {
		return true
	}
	sr, par := r.Stages[stage], r.Stages[r.Stage]
	return sr != nil && par != nil && sr.Parent == r.Stage && sr.ParentAttempt == par.Attempt && BranchPending(sr.Status)
}

// BranchPending reports whether a branch with status s is still open: dispatched or
// acting, waiting for its report or its effect.
func BranchPending(s StageStatus) bool {
	return s == StageWaiting || s == StageActing || s == StageRetrying
}

// HeadIndependent is implemented by checks whose verdict does not depend on the PR's
// head commit (a label on the PR, say). A moved head sends a run back to the first
// gate with a check that does not implement it.
type HeadIndependent interface {
	HeadIndependent() bool
}

// ActionNotifyAgent is the `action` input of a dispatch that notifies an agent.
const ActionNotifyAgent = "notify"

// StageStale is the status of a stage whose results an invalidate_and_restart reaction
// marked stale (and that the run has not entered again since).
const StageStale StageStatus = "stale"

// Stale records what an invalidate_and_restart reaction took from a stage: when, why,
// the verdict it had (its outputs are dropped: the state stays small), and the approving
// reviews on the pull request then, which do not count for the stage again (a review
// given since does).
type Stale struct {
	At      time.Time `json:"at"`
	Why     string    `json:"why"`
	Verdict string    `json:"verdict,omitempty"`
	SHA     string    `json:"sha,omitempty"`     // the head the verdict was given on
	Reviews []string  `json:"reviews,omitempty"` // ReviewKey of each
}

// WakeAction is the `action` input of a dispatch made by a wake_agent reaction.
const WakeAction = "wake"

// MaxSessionID bounds the session id passed on to an agent.
const MaxSessionID = 256
