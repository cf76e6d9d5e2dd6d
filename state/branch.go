package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"
)

// The state branch holds, at its head:
//
//	pr-7.json, issue-12.json   one subject's state: engine.State as JSON (EncodeFile)
//	index/00.json … 0f.json    the open runs of the subjects whose files hash there (ShardFile)
//	index/sweeps.json          the content writes of the last hour's sweeps (SweepLogFile)
//	index/retry.json           subjects whose event a rate limit refused, for the sweep (RetryFile)
//	archive/pr-7/<run>.json    each finished run that left its subject's live state
//
// Every change is one commit made with createCommitOnBranch (compare-and-swap on the
// head), whose message names the subject, the pipeline, the transition and the event
// (Message), so that `git log` of the branch is the history of every pipeline.

// IndexFile is the path of the one index of open runs an older action writes; its entries
// move to the shards (ShardFile) on the first save that reads it.
const IndexFile = "index.json"

// maxFileJSON caps a state file or the index read from the branch.
const maxFileJSON = 16 << 20

// SubjectFile is the path of a subject's state on the branch: "pr-7.json" for a pull
// request, "issue-12.json" for an issue.
func SubjectFile(isPR bool, number int) string {
	if isPR {
		return "pr-" + strconv.Itoa(number) + ".json"
	}
	return "issue-" + strconv.Itoa(number) + ".json"
}

// subjectName is a subject file's name without ".json": "pr-7".
func subjectName(file string) string { return strings.TrimSuffix(file, ".json") }

// ArchiveFile is where a finished run of the subject whose file is file is archived:
// archive/pr-7/<run id with "/" as ".">.json.
func ArchiveFile(file, runID string) string {
	return ArchiveDir(file) + "/" + strings.ReplaceAll(runID, "/", ".") + ".json"
}

// ArchiveDir is the directory of the archived runs of the subject whose file is file.
func ArchiveDir(file string) string { return "archive/" + subjectName(file) }

// EncodeFile returns a subject's state file: engine.State as indented JSON (diffs of
// the branch stay readable), ending in a newline.
func EncodeFile(st *model.State) (string, error) { return encodeFile(st, nil, nil) }

// encodeFile is EncodeFile, with claim and the audit's tail (nil: none) in the file.
func encodeFile(st *model.State, claim *Claim, tail *AuditTail) (string, error) {
	if st == nil {
		return "", errors.New("encoding state file: nil state")
	}
	js, err := json.MarshalIndent(claimedFile{State: st, Claim: claim, Audit: tail}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encoding state file: %w", err)
	}
	return string(js) + "\n", nil
}

// DecodeFile reads a subject's state file. It is strict: one JSON object of the
// current version, no unknown field (a newer action wrote it: stop rather than drop
// what it knows), no null run or stage, every run of subject (owner/repo#N). A file
// that fails is an error, never an empty state.
func DecodeFile(text, subject string) (*model.State, error) {
	st, _, err := decodeFile(text, subject)
	return st, err
}

// decodeFile is DecodeFile, with the file's claim to post the state comment (nil for none).
func decodeFile(text, subject string) (*model.State, *Claim, error) {
	f, err := decodeWhole(text, subject)
	return f.State, f.Claim, err
}

// decodeWhole is DecodeFile, with all the file holds besides the state.
func decodeWhole(text, subject string) (claimedFile, error) {
	text, _ = splitFileMAC(text) // a signature is checked by VerifyFile, not here
	var f claimedFile
	if err := strictJSON(text, &f); err != nil {
		return claimedFile{}, err
	}
	st, err := checkFile(f.State, subject)
	if err != nil {
		return claimedFile{}, err
	}
	f.State = st
	return f, nil
}

// checkFile holds a decoded state file to what DecodeFile promises.
func checkFile(st *model.State, subject string) (*model.State, error) {
	if st == nil {
		return nil, errors.New("json: null state")
	}
	if err := checkState(st); err != nil {
		return nil, err
	}
	if st.Subject != "" && st.Subject != subject {
		return nil, fmt.Errorf("it holds the state of %s, not of %s", st.Subject, subject)
	}
	for _, r := range st.Runs {
		if r.Subject != subject {
			return nil, fmt.Errorf("run %q is of %s, not of %s", r.ID, r.Subject, subject)
		}
	}
	return st, nil
}

// strictJSON decodes text into v: one value, no unknown field, nothing after it.
func strictJSON(text string, v any) error {
	if len(text) > maxFileJSON {
		return fmt.Errorf("larger than %d bytes", maxFileJSON)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("json: data after the value")
	}
	return nil
}

// checkState holds a decoded state to what Step assumes: the current version, no null
// run or stage.
func checkState(st *model.State) error {
	if st.Version != stateVersion {
		return fmt.Errorf("state version %d, want %d", st.Version, stateVersion)
	}
	for i, r := range st.Runs {
		if r == nil {
			return fmt.Errorf("run %d is null", i)
		}
		if r.Stages == nil {
			r.Stages = map[string]*model.StageRun{}
		}
		for id, sr := range r.Stages {
			if sr == nil {
				return fmt.Errorf("run %q: stage %q is null", r.ID, id)
			}
		}
	}
	return nil
}

// indexVersion is the version of index.json this action writes and reads.
const indexVersion = 1

// Index is an index file, a shard or IndexFile: open runs on the branch, what
// `pipeline-action status` lists and, through each run's next deadline, what a schedule
// sweep reads.
type Index struct {
	Version int          `json:"version"`
	Runs    []IndexEntry `json:"runs"`
}

// IndexEntry is one open run in the index.
type IndexEntry struct {
	Run      string          `json:"run"`
	Pipeline string          `json:"pipeline"`
	Subject  string          `json:"subject"` // owner/repo#N
	File     string          `json:"file"`    // the subject's state file
	Status   model.RunStatus `json:"status"`
	Stage    string          `json:"stage"`
	Updated  time.Time       `json:"updated_at"`
	// NextDeadline is the earliest deadline of the run's current stage (a timeout, the
	// end of a delay, a poll, a reminder): what a sweep reads. Zero when it waits for no time.
	NextDeadline time.Time `json:"next_deadline,omitzero"`
}

// DecodeIndex reads an index file, strictly.
func DecodeIndex(text string) (*Index, error) {
	var idx *Index
	if err := strictJSON(text, &idx); err != nil {
		return nil, err
	}
	if idx == nil {
		return nil, errors.New("json: null index")
	}
	if idx.Version != indexVersion {
		return nil, fmt.Errorf("index version %d, want %d", idx.Version, indexVersion)
	}
	return idx, nil
}

// EncodeIndex returns the text of an index file for idx: its entries one a line, sorted
// by file and run.
func EncodeIndex(idx *Index) (string, error) { return encodeEntries(idx) }

// WithSubject returns a copy of idx whose entries for file are the open runs of st. A
// nil idx is an empty index.
func (idx *Index) WithSubject(file string, st *model.State) *Index {
	out := &Index{Version: indexVersion}
	if idx != nil {
		for _, e := range idx.Runs {
			if e.File != file {
				out.Runs = append(out.Runs, e)
			}
		}
	}
	for _, r := range st.Runs {
		if r.Status.Final() {
			continue
		}
		out.Runs = append(out.Runs, IndexEntry{Run: r.ID, Pipeline: r.Pipeline, Subject: r.Subject, File: file,
			Status: r.Status, Stage: r.Stage, Updated: r.UpdatedAt, NextDeadline: r.NextDeadline()})
	}
	return out
}

// MaxPast bounds State.Past per subject: the newest records stay, whatever the number of
// pipelines. A record that leaves folds into its pipeline's State.Marks, which keeps what
// must outlive it (the highest run number, the newest trigger time): a run id is never
// used again, a level trigger does not start again. Its trigger key is forgotten: a
// delivery whose runs are all older than the subject's last MaxPast records that left
// State.Runs is not recognised by its key any more.
const MaxPast = 64

// MaxFinished bounds the finished runs State.Runs keeps for the status, per subject: of
// the pipelines' last runs, the newest (by their last change) stay, besides the
// sub-pipelines' runs an open parent holds.
const MaxFinished = 8

// Compact moves the finished runs out of st's live runs: a finished run stays only while
// it is the newest run of its pipeline and among the newest MaxFinished such runs of the
// subject (the status shows how they ended), or an open run holds it; the others leave Runs for a record in Past (what the engine still
// needs of them) and are returned, to be archived. Past keeps the newest MaxPast records
// and folds the older into State.Marks. So what an event reads and writes, and what the
// comment holds, grow with the open runs only, never with the number of pipelines. st is
// not modified.
func Compact(st *model.State) (live *model.State, archived []*model.Run) {
	held, kept := heldRuns(st.Runs), newestFinished(st.Runs)
	out := *st
	out.Runs = nil
	out.Past = append([]model.PastRun(nil), st.Past...)
	for _, r := range st.Runs {
		if !r.Status.Final() || kept[r] || held[r.ID] {
			out.Runs = append(out.Runs, r)
			continue
		}
		archived = append(archived, r)
		out.Past = append(out.Past, r.Past())
	}
	if len(archived) == 0 && len(out.Past) <= MaxPast {
		return st, nil
	}
	if n := len(out.Past) - MaxPast; n > 0 {
		out.Marks = maps.Clone(st.Marks)
		if out.Marks == nil {
			out.Marks = map[string]model.RunMark{}
		}
		for _, p := range out.Past[:n] {
			out.Marks[p.Pipeline] = out.Marks[p.Pipeline].Fold(p)
		}
		out.Past = out.Past[n:]
	}
	return &out, archived
}

// heldRuns are the ids of the sub-pipelines' runs an open run holds: the parent reads
// its child's end, the merge guard re-checks it (and so its own children, which stay with
// it), and the status shows it under the parent's stage.
func heldRuns(runs []*model.Run) map[string]bool {
	held := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, r := range runs {
			if r.Status.Final() && !held[r.ID] {
				continue
			}
			for _, sr := range r.Stages {
				if sr != nil && sr.Child != "" && !held[sr.Child] {
					held[sr.Child], grew = true, true
				}
			}
		}
	}
	return held
}

// newestFinished are the finished runs that stay for the status: of each pipeline its
// newest run when finished, and of those the MaxFinished that changed last (of two that
// changed at once, the later in runs).
func newestFinished(runs []*model.Run) map[*model.Run]bool {
	newest := map[string]*model.Run{}
	for _, r := range runs {
		if n := newest[r.Pipeline]; n == nil || model.RunNumber(r.ID) > model.RunNumber(n.ID) ||
			model.RunNumber(r.ID) == model.RunNumber(n.ID) && !r.StartedAt.Before(n.StartedAt) {
			newest[r.Pipeline] = r
		}
	}
	var done []*model.Run
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r.Status.Final() && newest[r.Pipeline] == r {
			done = append(done, r)
		}
	}
	slices.SortStableFunc(done, func(a, b *model.Run) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	kept := map[*model.Run]bool{}
	for _, r := range done[:min(len(done), MaxFinished)] {
		kept[r] = true
	}
	return kept
}

// EncodeRun returns the archive file of a finished run.
func EncodeRun(r *model.Run) (string, error) {
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", fmt.Errorf("archiving run %s: %w", r.ID, err)
	}
	return string(js) + "\n", nil
}

// Event is what the commit message says of the event that changed a state.
type Event struct {
	Name  string // "pull_request_review.submitted"
	Actor string // who sent it; "" when unknown
}

func (e Event) String() string {
	switch {
	case e.Name == "":
		return "no event"
	case e.Actor == "":
		return e.Name
	}
	return e.Name + " by " + e.Actor
}

// Message is the commit message of a change of file from old to st on ev:
//
//	pr-7 pr-lifecycle: approval-gate → auto-merge (pull_request_review.submitted by alice)
//
// one line per run whose record changed, from its new history entries (the first
// one's "from" to the last one's "to"; "start" for a run that began). With several,
// the headline names the first and counts the rest, and the body lists them all.
func Message(file string, old, st *model.State, ev Event, archived []*model.Run) (headline, body string) {
	before := map[string]*model.Run{}
	if old != nil {
		for _, r := range old.Runs {
			before[r.ID] = r
		}
	}
	var lines []string
	for _, r := range st.Runs {
		if line := runLine(before[r.ID], r); line != "" {
			lines = append(lines, line)
		}
	}
	subject := subjectName(file)
	switch len(lines) {
	case 0:
		headline = subject + ": state updated"
	case 1:
		headline = subject + " " + lines[0]
	default:
		headline = fmt.Sprintf("%s %s; and %d more", subject, lines[0], len(lines)-1)
	}
	headline += " (" + ev.String() + ")"
	var b strings.Builder
	if len(lines) > 1 {
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	for _, r := range archived {
		fmt.Fprintf(&b, "archived %s (%s) to %s\n", r.ID, r.Status, ArchiveFile(file, r.ID))
	}
	return headline, strings.TrimRight(b.String(), "\n")
}

// runLine describes what changed in a run: "pipeline: from → to", "pipeline: at stage"
// when only its record changed, "" when nothing did.
func runLine(old, r *model.Run) string {
	if old != nil && string(mustJSONRun(old)) == string(mustJSONRun(r)) {
		return ""
	}
	fresh := r.History
	if old != nil && len(old.History) > 0 {
		last := old.History[len(old.History)-1]
		fresh = nil
		for i := len(r.History) - 1; i >= 0; i-- {
			if sameTransition(r.History[i], last) {
				fresh = r.History[i+1:]
				break
			}
		}
	}
	if len(fresh) == 0 {
		return fmt.Sprintf("%s: at %s", r.Pipeline, orStart(r.Stage))
	}
	return fmt.Sprintf("%s: %s → %s", r.Pipeline, orStart(fresh[0].From), fresh[len(fresh)-1].To)
}

func sameTransition(a, b model.Transition) bool {
	return a.At.Equal(b.At) && a.Actor == b.Actor && a.From == b.From && a.To == b.To && a.Why == b.Why
}

func orStart(stage string) string {
	if stage == "" {
		return "start"
	}
	return stage
}

func mustJSONRun(r *model.Run) []byte {
	js, _ := json.Marshal(r)
	return bytes.TrimSpace(js)
}
