package model

// Result is what Step and Settle return: the subject's new state, the effects to
// perform, and lines for the job log.
type Result struct {
	State   *State
	Effects []Effect
	Changed bool     // State differs from the state passed in (Seq was bumped)
	Log     []string // what happened, for humans reading the job log
	// Visits counts the stages each run entered in this event so far; the caller passes it
	// on to Settle (Input.Visits), so that a loop is bounded across effect rounds too.
	Visits map[string]int
	// NeedsFiles: a condition tested the changed files (paths_match) and the facts did
	// not hold them; the run it decided stopped for want of them. The caller reads them
	// (Facts.PR.Files) and evaluates again: Step and Settle are pure.
	NeedsFiles bool
	// DoneBy is the run (its top-level run) whose merge of the subject, or close of the
	// subject issue, was performed in this event; "" while none was. The caller passes it on
	// to Settle (Input.DoneBy): the other runs of the event act on the subject no more.
	DoneBy string
}

// Report is what an agent sends back when it is done: the verdict for one attempt of
// one agent stage of one run, and its outputs (`stages.<id>.outputs`).
type Report struct {
	Run     string         `json:"run"`
	Stage   string         `json:"stage"`
	Attempt int            `json:"attempt"`
	Verdict string         `json:"verdict"`
	Outputs map[string]any `json:"outputs,omitempty"`
	// Nonce echoes the dispatch's `nonce` input: only the live attempt's counts.
	Nonce string `json:"nonce,omitempty"`
}

// AgentFailure says that a workflow run which names one attempt of an agent stage (in its
// run-name) ended without a report (it failed or was cancelled). Anyone with write access
// can start a workflow run with such a name, so what GitHub says of the run — which file,
// branch, event and identity started it, and its id — decides whether it is the agent's.
type AgentFailure struct {
	Run     string `json:"run"`
	Stage   string `json:"stage"`
	Attempt int    `json:"attempt"`
	Why     string `json:"why"` // e.g. "workflow run 42 concluded failure"
	// The workflow run, as its workflow_run event describes it: its id, workflow file
	// path, head_branch, event, actor and triggering_actor.
	RunID           int64  `json:"run_id,omitempty"`
	Path            string `json:"path,omitempty"`
	Branch          string `json:"branch,omitempty"`
	Event           string `json:"event,omitempty"`
	Actor           string `json:"actor,omitempty"`
	TriggeringActor string `json:"triggering_actor,omitempty"`
}
