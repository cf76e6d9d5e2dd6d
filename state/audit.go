package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"
)

// A run keeps its first engine.HistoryHead transitions and its newest, up to
// engine.MaxHistory; the rows between leave its history as it goes on. The state branch
// keeps them in the subject's audit, so that every transition is on the branch:
//
//	audit/pr-7/0001.jsonl, 0002.jsonl …  full parts of auditPartRows rows, written once
//	pr-7.json "audit"                    the rows not in a part yet, and the parts written
//
// A row is appended, never rewritten: a save that cuts rows from a history adds them to
// the subject file's tail (which the save writes anyway), and once the tail holds
// auditPartRows rows they go to a new part in that same commit. No save reads a part, and
// a part is written once: about auditPartRows × 200 bytes.

// auditPartRows is how many rows an audit part holds.
const auditPartRows = 25

// AuditEntry is one transition of a run, as the audit keeps it: one JSON object per line.
type AuditEntry struct {
	At       time.Time `json:"at"`
	Run      string    `json:"run"`
	Pipeline string    `json:"pipeline"`
	Actor    string    `json:"actor,omitempty"`
	From     string    `json:"from,omitempty"`
	To       string    `json:"to"`
	Why      string    `json:"why"`
	Kind     string    `json:"kind,omitempty"` // engine.KindLoop, KindRetry, KindError; "" for any other
}

// AuditTail is the part of the audit in the subject's file: the rows not in a part yet,
// and how many parts were written.
type AuditTail struct {
	Parts int          `json:"parts,omitempty"`
	Rows  []AuditEntry `json:"rows,omitempty"`
	// Sums are the SHA-256 (hex) of each audit part and archived run the saves wrote, by
	// path. Anyone who may push can write a file under audit/ or archive/; the subject's
	// file, trusted as its state is (and signed with the state key when there is one),
	// vouches for the ones the action wrote (Trail).
	Sums map[string]string `json:"sums,omitempty"`
}

// withSums is tail with the SHA-256 of each of files recorded in its Sums; tail itself
// when files is empty, and never changed.
func withSums(tail *AuditTail, files []FileChange) *AuditTail {
	if len(files) == 0 {
		return tail
	}
	next := &AuditTail{Sums: map[string]string{}}
	if tail != nil {
		next.Parts, next.Rows = tail.Parts, tail.Rows
		for p, sum := range tail.Sums {
			next.Sums[p] = sum
		}
	}
	for _, f := range files {
		next.Sums[f.Path] = textSum(f.Text)
	}
	return next
}

// textSum is the SHA-256 of text in lower-case hex.
func textSum(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// AuditDir is the directory of the audit parts of the subject whose file is file.
func AuditDir(file string) string { return "audit/" + subjectName(file) }

// AuditPart is the path of part n (from 1) of the subject's audit.
func AuditPart(file string, n int) string { return fmt.Sprintf("%s/%04d.jsonl", AuditDir(file), n) }

// historyMark is a run's history as the branch holds it: the rows and how many were cut.
type historyMark struct {
	cut  int
	rows []model.Transition
}

// historyMarks are the histories of st's runs, by run id.
func historyMarks(st *model.State) map[string]historyMark {
	out := map[string]historyMark{}
	if st == nil {
		return out
	}
	for _, r := range st.Runs {
		if r != nil {
			out[r.ID] = historyMark{cut: r.HistoryCut, rows: append([]model.Transition(nil), r.History...)}
		}
	}
	return out
}

// cutRows are the rows run cut from its history since old: the rows old holds at the
// positions, counted from the run's start, that the new cut covers. Rows both added and
// cut since old are in neither; a save holds far fewer transitions than that takes.
func cutRows(old historyMark, run *model.Run) []AuditEntry {
	var out []AuditEntry
	lo, hi := model.HistoryHead+old.cut, model.HistoryHead+run.HistoryCut
	for i, t := range old.rows {
		pos := i
		if i >= model.HistoryHead {
			pos += old.cut
		}
		if pos >= lo && pos < hi {
			out = append(out, auditEntry(run, t))
		}
	}
	return out
}

func auditEntry(run *model.Run, t model.Transition) AuditEntry {
	return AuditEntry{At: t.At, Run: run.ID, Pipeline: run.Pipeline, Actor: t.Actor, From: t.From, To: t.To, Why: t.Why, Kind: t.Kind}
}

// auditChanges adds the rows st's runs cut since marks to tail, and returns the new tail
// and the part to write when it filled one (nil: none). tail is not changed.
func auditChanges(file string, tail *AuditTail, marks map[string]historyMark, st *model.State) (*AuditTail, []FileChange, error) {
	var rows []AuditEntry
	for _, r := range st.Runs {
		if m, ok := marks[r.ID]; ok && r.HistoryCut > m.cut {
			rows = append(rows, cutRows(m, r)...)
		}
	}
	if len(rows) == 0 {
		return tail, nil, nil
	}
	next := &AuditTail{}
	if tail != nil {
		next.Parts, next.Rows, next.Sums = tail.Parts, append([]AuditEntry(nil), tail.Rows...), tail.Sums
	}
	next.Rows = append(next.Rows, rows...)
	var files []FileChange
	for len(next.Rows) >= auditPartRows {
		text, err := auditLines(next.Rows[:auditPartRows])
		if err != nil {
			return nil, nil, err
		}
		next.Parts++
		files = append(files, FileChange{Path: AuditPart(file, next.Parts), Text: text})
		next.Rows = next.Rows[auditPartRows:]
	}
	return next, files, nil
}

// auditLines is rows as JSON Lines.
func auditLines(rows []AuditEntry) (string, error) {
	var b strings.Builder
	for _, r := range rows {
		js, err := json.Marshal(r)
		if err != nil {
			return "", fmt.Errorf("encoding the audit: %w", err)
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// auditWrite sets s.pending to the audit's tail after c, and returns the part it filled
// and the archives of the runs archived, their sums in the tail. The histories are
// compared with those the branch holds: as read, or as last written.
func (s *BranchStore) auditWrite(c Change, archived []*model.Run) ([]FileChange, error) {
	marks := s.marks
	if marks == nil {
		marks = historyMarks(c.Old)
	}
	tail, files, err := auditChanges(s.file, s.audit, marks, c.State)
	if err != nil {
		return nil, err
	}
	for _, r := range archived {
		a, err := EncodeRun(r)
		if err != nil {
			return nil, err
		}
		files = append(files, FileChange{Path: ArchiveFile(s.file, r.ID), Text: a})
	}
	s.pending = withSums(tail, files)
	roll, err := rollSums(s.file, s.pending)
	if err != nil {
		return nil, err
	}
	if roll != nil {
		files = append(files, *roll)
	}
	return files, nil
}
