package model

// Chat-op commands.
const (
	CmdApprove = "approve"
	CmdRetry   = "retry"
	CmdSkip    = "skip"
	CmdCancel  = "cancel"
	CmdUnblock = "unblock"
	CmdRestart = "restart"
	CmdStatus  = "status"
	CmdStart   = "start"
	CmdEnable  = "enable"
	CmdDisable = "disable"
	CmdRetest  = "retest"
)

// MaxRetested bounds State.Retested: who asked for a retest of which head.
const MaxRetested = 20

// MaxRefused bounds State.Refused: the people a refusal was last replied to.
const MaxRefused = 20

// Refusal is a reply that refused a person's command: who, and how the subject's runs
// stood (runsAt).
type Refusal struct {
	Login string `json:"login"`
	Runs  string `json:"runs"`
}
