package model

import (
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// GateStatus is the outcome of one gate condition.
type GateStatus string

// Gate statuses. Only GatePass lets a gate advance; GateError fails closed.
const (
	GatePass    GateStatus = "pass"
	GatePending GateStatus = "pending" // not yet decided (CI running)
	GateFail    GateStatus = "fail"    // decided against (changes requested, CI failed)
	GateError   GateStatus = "error"   // the facts needed are missing
)

// GateResult is what a condition says about the facts, for the engine and for humans.
type GateResult struct {
	Check    string     `json:"check"`
	Status   GateStatus `json:"status"`
	Message  string     `json:"message"`       // a sentence: what is unmet and why, or what holds
	Who      string     `json:"who,omitempty"` // who or what can change it, when unmet
	Optional bool       `json:"optional,omitempty"`
}

// Rule names, as parts of Run.Iterations' keys and of effect keys.
const (
	RuleOnFail      = "on_fail"
	RuleOnConflict  = "on_conflict"
	RuleOnCIFailure = "on_ci_failure"
)

func FailedMessage(rs []GateResult, check string) string {
	for _, r := range rs {
		if r.Check == check && r.Status == GateFail {
			return r.Message
		}
	}
	return ""
}

// FailedChecks names the checks on the head that failed, or "".
func FailedChecks(pr *PullRequest) string {
	var names []string
	for _, c := range pr.Checks {
		if c.State == CheckFailure && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// Failures lists the messages of every required condition that decidedly failed, so
// that a gate failing for several reasons says them all in one place.
func Failures(rs []GateResult) string {
	var out []string
	for _, r := range rs {
		if !r.Optional && r.Status == GateFail {
			out = append(out, r.Message)
		}
	}
	return strings.Join(out, "; ")
}

func NamesOf(group []lang.Condition) []string {
	out := make([]string, len(group))
	for i, c := range group {
		out[i] = c.Check
	}
	return out
}

// Clocked is a check whose result changes with time alone (a merge window): NextChange is
// the first time after now when it may change, zero when it never will. The engine arms a
// deadline there, so the sweep looks again without waiting for an event.
type Clocked interface {
	NextChange(now time.Time) time.Time
}

// FirstUnmet is the message of the first required condition of rs that does not pass.
func FirstUnmet(rs []GateResult) string {
	for _, r := range rs {
		if !r.Optional && r.Status != GatePass {
			return r.Check + ": " + r.Message
		}
	}
	return ""
}
