package model

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// RunStatus is where a run is in its life.
type RunStatus string

// Run statuses. Completed, failed and cancelled are final.
const (
	RunRunning   RunStatus = "running"
	RunWaiting   RunStatus = "waiting"
	RunCompleted RunStatus = "completed"
	RunFailed    RunStatus = "failed"
	RunCancelled RunStatus = "cancelled"
	// RunEscalated: the run stopped for a person (an `escalate` target); it is not
	// final, and moves again only on a chat-op command (retry, skip, unblock, restart, cancel).
	RunEscalated RunStatus = "escalated"
)

// Final reports whether the run can no longer change.
func (s RunStatus) Final() bool {
	return s == RunCompleted || s == RunFailed || s == RunCancelled
}

// StageStatus is where a stage run is.
type StageStatus string

// Stage statuses.
const (
	StageWaiting   StageStatus = "waiting"   // a gate not yet satisfied
	StageActing    StageStatus = "acting"    // an effect was asked for, its outcome is not known yet
	StageRetrying  StageStatus = "retrying"  // an effect failed; it is tried again on the next event
	StagePassed    StageStatus = "passed"    // gate passed
	StageFailed    StageStatus = "failed"    // gate failed, or action failed for good
	StageSucceeded StageStatus = "succeeded" // action done
	StageCancelled StageStatus = "cancelled"
	StageSkipped   StageStatus = "skipped" // left by a `/pipeline skip` command
)

// State is everything pipeline-action remembers about one subject (a PR or an issue).
// It is what the state comment and the state branch hold.
type State struct {
	Version int    `json:"version"`
	Subject string `json:"subject"` // owner/repo#N
	Seq     int    `json:"seq"`     // bumped on every change
	Runs    []*Run `json:"runs"`
	// Ignored lists the comments that held a state the action could not trust (edited
	// by someone else, not bound to their comment, ...), oldest first, so that the
	// status reports them and the job log only once. The engine only carries it.
	Ignored []IgnoredComment `json:"ignored,omitempty"`
	// Past keeps what the engine still needs of finished runs that left Runs (the store
	// archives them, so that the live state holds open runs and the newest few finished
	// runs only): not to start a pipeline again for the same trigger, and to
	// number the next run. Newest last; the store bounds it per subject, and folds the
	// records it drops into Marks.
	Past []PastRun `json:"past,omitempty"`
	// Marks keeps, per pipeline, what the records that left Past still say: the highest
	// run number, the newest trigger time, the newest trigger key (RunMark). The engine
	// reads them with Past.
	Marks map[string]RunMark `json:"marks,omitempty"`
	// Disowned lists the newest `/pipeline` comments that someone other than their author
	// edited (at most MaxDisowned): they were not acted on, and the status says so.
	Disowned []DisownedComment `json:"disowned,omitempty"`
	// CommandsSeen is the id of the newest `/pipeline` command comment acted on: comment
	// ids only grow, so each command is acted on once.
	CommandsSeen int64 `json:"commands_seen,omitempty"`
	// CommentsRead is the id of the newest comment an event read whose state was saved:
	// every comment up to it was evaluated, so an event reads only the newer ones (and
	// those a waiting stage still counts). StateComment is the node id of the subject's
	// state comment, to read it wherever it is. The store's reader keeps both; the engine
	// only carries them.
	CommentsRead int64  `json:"comments_read,omitempty"`
	StateComment string `json:"state_comment,omitempty"`
	// Refused are the people last answered that a command of theirs was refused, and
	// how the runs stood then: another refusal before the runs move gets no reply.
	// Oldest first, at most MaxRefused.
	Refused []Refusal `json:"refused,omitempty"`
	// Retested is who asked `/pipeline retest` of which head ("login@sha"), newest last, at
	// most MaxRetested: one retest per head per person.
	Retested []string `json:"retested,omitempty"`
	// Shared are the subject's shared variables, `shared.*`: one namespace for every
	// pipeline on the subject, set by set_shared and kept across runs.
	Shared map[string]any `json:"shared,omitempty"`
	// Enabled overrides, for this subject, whether a pipeline starts: true enables one
	// that is `enabled: false`, false keeps one from starting (engine/internal/dormant).
	// Kept apart from Shared, so that `shared.*` and set_shared never touch it.
	Enabled map[string]bool `json:"enabled,omitempty"`
	// Followers are, in a pull request's state, the runs of issues that follow it (their
	// context.prs holds it): an event on the pull request moves them too.
	Followers []Follower `json:"followers,omitempty"`
}

// DisownedComment is a command comment that was not acted on because someone other than
// its author edited it.
type DisownedComment struct {
	ID     int64  `json:"id"`
	Author string `json:"author"`
	Editor string `json:"editor"`
}

// MaxDisowned bounds State.Disowned; the oldest go first.
const MaxDisowned = 5

// PastRun is the record of a finished run that left State.Runs.
type PastRun struct {
	ID         string    `json:"id"`
	Pipeline   string    `json:"pipeline"`
	Status     RunStatus `json:"status"`
	TriggerKey string    `json:"trigger_key,omitempty"`
	TriggerAt  time.Time `json:"trigger_at,omitzero"`
	StartedAt  time.Time `json:"started_at"`
	Parent     string    `json:"parent,omitempty"` // a sub-pipeline's run: Run.Parent
}

// Past returns the record State.Past keeps of a finished run.
func (r *Run) Past() PastRun {
	return PastRun{ID: r.ID, Pipeline: r.Pipeline, Status: r.Status, TriggerKey: r.TriggerKey, TriggerAt: r.TriggerAt, StartedAt: r.StartedAt, Parent: r.Parent}
}

// PipelineRef names the definition r follows, for Config.PipelineFor: the config it
// started under and its pipeline.
func (r *Run) PipelineRef() (configOID, pipeline string) { return r.ConfigOID, r.Pipeline }

// RunNumber is the number that ends a run id (<pipeline>/<subject number>/<n>); 0 when
// the id ends otherwise.
func RunNumber(id string) int {
	i := strings.LastIndexByte(id, '/')
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// IgnoredComment is a comment whose state was not trusted, and why; or, with Commit
// set (and ID 0), a state-branch file whose last change, that commit, was not trusted;
// or, with File set, a file of a stage's outputs that is missing or not the one the
// state's digest names (the stage goes on without those outputs).
type IgnoredComment struct {
	ID     int64  `json:"id"`
	Commit string `json:"commit,omitempty"`
	File   string `json:"file,omitempty"`
	Why    string `json:"why"`
}

// Run is one execution of a pipeline over a subject. It is self-describing.
type Run struct {
	ID         string               `json:"id"` // <pipeline>/<subject number>/<n>
	Pipeline   string               `json:"pipeline"`
	ConfigOID  string               `json:"config_oid,omitempty"` // the config blob the run started under
	Subject    string               `json:"subject"`              // owner/repo#N
	Status     RunStatus            `json:"status"`
	Stage      string               `json:"stage,omitempty"` // current stage (last stage once final)
	Stages     map[string]*StageRun `json:"stages"`
	TriggerKey string               `json:"trigger_key,omitempty"` // the input that started it
	// TriggerAt is when the state its trigger names last began (the label was added,
	// the PR opened), as the facts told when it started; zero for triggers on a happening.
	TriggerAt time.Time `json:"trigger_at,omitzero"`
	StartedAt time.Time `json:"started_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Message   string    `json:"message,omitempty"` // why the run ended as it did
	// VerifiedSHA is the head commit the last gate passed on, and VerifiedBy that gate's id.
	// A merge only ever merges VerifiedSHA; if the head moved, the run goes back to VerifiedBy.
	VerifiedSHA string `json:"verified_sha,omitempty"`
	VerifiedBy  string `json:"verified_by,omitempty"`
	// Head is the head of the run's pull request as the run last saw it, and HeadSince
	// when the run first saw that head after seeing another (zero while it has seen one
	// head only). GitHub tells when a comment, a label or a dismissal was made but not
	// when a commit was pushed, so what people did before HeadSince may have been done on
	// an older head: at a human stage it counts for the head it was given on only.
	// Seeing a head late only makes more of it stale, never less.
	Head      string       `json:"head,omitempty"`
	HeadSince time.Time    `json:"head_since,omitzero"`
	History   []Transition `json:"history,omitempty"`
	// HistoryCut counts the entries left out after the first HistoryHead to keep History
	// to MaxHistory, so that whoever reads it knows where rows are missing.
	HistoryCut int      `json:"history_cut,omitempty"`
	Applied    []string `json:"applied,omitempty"` // keys of effects known done
	// Intents are the write-ahead effects asked for whose outcome is not recorded yet
	// (see Intent). While one is in flight, the run waits.
	Intents []Intent `json:"intents,omitempty"`
	// Context is the run's context: the pipeline's `context:` computed when it started,
	// and what verdict rules merged into it since.
	Context map[string]any `json:"context,omitempty"`
	// Iterations counts the loops of verdict rules, by "<stage>/<verdict>", and of the
	// loop rules of gates and merges, by "<stage>/<rule>" (on_fail, on_ci_failure).
	Iterations map[string]int `json:"iterations,omitempty"`
	// Variables are the run's variables: the pipeline's `variables:` computed when it
	// started, and what set_variable set since. A run started before
	// they were kept has none: its `variables:` are computed when read.
	Variables map[string]any `json:"variables,omitempty"`
	// Parent is set on a sub-pipeline's run: "<parent run id>/<stage id>", the stage of
	// the parent that started it, at attempt ParentAttempt; Depth is how deep it nests
	// (1 for a child of a run started by a trigger).
	Parent        string `json:"parent,omitempty"`
	ParentAttempt int    `json:"parent_attempt,omitempty"`
	Depth         int    `json:"depth,omitempty"`
}

// StageRun is the record of one stage within a run.
type StageRun struct {
	Status    StageStatus  `json:"status"`
	Deadlines []Deadline   `json:"deadlines,omitempty"`
	Attempt   int          `json:"attempt"`         // 1 on first entry, +1 on every re-entry
	Tries     int          `json:"tries,omitempty"` // effect attempts within this entry
	EnteredAt time.Time    `json:"entered_at"`
	Results   []GateResult `json:"results,omitempty"` // last gate evaluation
	Message   string       `json:"message,omitempty"` // last effect error, or why it failed
	// Human stages: the `/pipeline approve` commands given in this attempt, and the
	// reminders sent (the next one is a deadline).
	Approvals []Approval `json:"approvals,omitempty"`
	Reminders int        `json:"reminders,omitempty"`
	// Skipped is the `/pipeline skip` that left this attempt of a human stage: the merge
	// guard counts it as the stage held only while its author may still use commands and
	// the head and base it was given on are the pull request's.
	Skipped *Approval `json:"skipped,omitempty"`
	// Agent stages: the outputs and verdict of the last report, and the agent errors
	// (ended without a report, dispatch refused) since the last report.
	Outputs map[string]any `json:"outputs,omitempty"`
	// OutputsFile stands for Outputs in the stored state when they are too large to keep
	// inline: the store writes them to their own file on the state branch and puts them
	// back when it loads the state. The engine reads Outputs only.
	OutputsFile *OutputsFile `json:"outputs_file,omitempty"`
	Verdict     string       `json:"verdict,omitempty"`
	Errors      int          `json:"errors,omitempty"`
	// HeadSHA is the head of the pull request when this attempt's agent was dispatched:
	// what its verdict was given on (an approval counts for that head only).
	HeadSHA string `json:"head_sha,omitempty"`
	// Nonce is this attempt's dispatch nonce ("<attempt>-<hex>"), which the agent's report
	// must echo; AgentRun the id of the workflow run its dispatch started, when GitHub
	// told it.
	Nonce    string `json:"nonce,omitempty"`
	AgentRun int64  `json:"agent_run,omitempty"`
	// Queued is, for merge_pr, the head this attempt put in GitHub's merge queue, while it
	// is there.
	Queued string `json:"queued,omitempty"`
	// ConditionChecked: the stage's `condition` was decided for this attempt, and held.
	ConditionChecked bool `json:"condition_checked,omitempty"`
	// Stale is set when an invalidate_and_restart reaction took the stage's approvals and
	// results.
	Stale *Stale `json:"stale,omitempty"`
	// Branches of a parallel stage: Parent is the parallel stage a
	// branch belongs to, and ParentAttempt the attempt of that stage its record is of.
	Parent        string `json:"parent,omitempty"`
	ParentAttempt int    `json:"parent_attempt,omitempty"`
	// Child is the id of the sub-pipeline run this attempt of a pipeline stage started.
	Child string `json:"child,omitempty"`
}

// OutputsFile names the file on the state branch that holds a stage's outputs, and binds
// its content: Digest is the SHA-256 of the file's text, so a file changed or swapped on
// the branch is told from the one the action wrote. Bytes and Keys summarise the outputs
// for whoever reads the state without the file.
type OutputsFile struct {
	Path   string   `json:"path"`
	Digest string   `json:"sha256"`
	Bytes  int      `json:"bytes"`
	Keys   []string `json:"keys,omitempty"`
}

// Transition is one entry of a run's history.
type Transition struct {
	At    time.Time `json:"at"`
	Actor string    `json:"actor,omitempty"`
	From  string    `json:"from,omitempty"`
	To    string    `json:"to"`
	Why   string    `json:"why"`
	Kind  string    `json:"kind,omitempty"` // KindLoop, KindRetry, KindError; "" for any other
}

// The kinds of transition that `stats` counts without reading their why.
const KindLoop, KindRetry, KindError = "loop", "retry", "error"

// MaxHistory caps Run.History: it keeps its first HistoryHead entries, where the run
// began, and the newest; those between go first (the state branch's audit keeps them).
const MaxHistory, HistoryHead = 50, 5

// Bounds on what set_variable and set_shared keep in the state (which a comment holds too).
const (
	MaxVariableBytes = 2048 // the JSON of one value
	MaxVariables     = 50   // names in one namespace
)

func AppendOnce(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// AppendBounded records key in run.Applied, keeping of the keys ours tells apart only the
// last MaxReactionKeys (with key): notifications repeat for every delivery or head commit.
func AppendBounded(run *Run, key string, ours func(string) bool) {
	var kept []string
	n := 0
	for i := len(run.Applied) - 1; i >= 0; i-- {
		k := run.Applied[i]
		if ours(k) {
			if n++; n >= MaxReactionKeys {
				continue
			}
		}
		kept = append([]string{k}, kept...)
	}
	run.Applied = append(kept, key)
}

// SameReaction tells apart the keys of the reactions of on_events of the kind of key (the
// same prefix and last segment: notify, wake, restart). Each kind is bounded apart, so that
// many notifications never push out the key of the restart for the current head, which keeps
// the run from restarting again for it.
func SameReaction(prefix, key string) func(string) bool {
	kind := key[strings.LastIndex(key, "/"):]
	return func(k string) bool { return strings.HasPrefix(k, prefix) && strings.HasSuffix(k, kind) }
}

const (
	ReactOnEvents   = "on_events"
	MaxReactionKeys = 20
)
