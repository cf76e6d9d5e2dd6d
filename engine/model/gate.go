package model

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
