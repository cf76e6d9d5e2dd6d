package state

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// AuditRead is what the audit command reads at the state branch's head: the subject's
// file, its audit parts and its archived runs, path → text ("" for a file GitHub gave
// no whole text of).
type AuditRead struct {
	File     *BranchFile
	Parts    map[string]string
	Archives map[string]string
}

// Trail is a subject's whole trail, oldest first: every transition of its runs, live
// and archived, each row its history kept and each row the audit holds of it. Problems
// are the files that could not be read, whose rows are missing.
func Trail(subject string, r AuditRead) (rows []AuditEntry, problems []string) {
	var runs []*engine.Run
	var tail *AuditTail
	if f := r.File; f != nil {
		whole, err := decodeWhole(f.Text, subject)
		if err != nil || f.Truncated {
			problems = append(problems, fmt.Sprintf("%s: %v", f.Path, orTruncated(err)))
		} else {
			runs, tail = whole.Runs, whole.Audit
		}
	}
	for _, p := range sortedKeys(r.Archives, archiveOrder) {
		var run engine.Run
		if err := json.Unmarshal([]byte(r.Archives[p]), &run); err != nil || run.ID == "" {
			problems = append(problems, fmt.Sprintf("%s: %v", p, orTruncated(err)))
			continue
		}
		runs = append(runs, &run)
	}
	cut := map[string][]AuditEntry{}
	var order []string
	add := func(e AuditEntry) {
		if _, ok := cut[e.Run]; !ok {
			order = append(order, e.Run)
		}
		cut[e.Run] = append(cut[e.Run], e)
	}
	for _, p := range sortedKeys(r.Parts, partOrder) {
		es, err := parseAuditLines(r.Parts[p])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", p, err))
		}
		for _, e := range es {
			add(e)
		}
	}
	if tail != nil {
		for _, e := range tail.Rows {
			add(e)
		}
	}
	return mergeTrail(runs, cut, order), problems
}

// mergeTrail puts each run's cut rows between the first rows its history keeps and the
// newest, and orders all by time (a run's own order kept).
func mergeTrail(runs []*engine.Run, cut map[string][]AuditEntry, order []string) []AuditEntry {
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].StartedAt.Before(runs[j].StartedAt) })
	var out []AuditEntry
	seen := map[string]bool{}
	for _, run := range runs {
		if seen[run.ID] {
			continue
		}
		seen[run.ID] = true
		head := 0
		if run.HistoryCut > 0 {
			head = min(engine.HistoryHead, len(run.History))
		}
		for _, t := range run.History[:head] {
			out = append(out, auditEntry(run, t))
		}
		out = append(out, cut[run.ID]...)
		for _, t := range run.History[head:] {
			out = append(out, auditEntry(run, t))
		}
	}
	for _, id := range order {
		if !seen[id] { // its run's file is gone: its cut rows are all there is
			out = append(out, cut[id]...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// parseAuditLines reads a part: one AuditEntry a line.
func parseAuditLines(text string) ([]AuditEntry, error) {
	var out []AuditEntry
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), maxFileJSON)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var e AuditEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

func orTruncated(err error) error {
	if err == nil {
		return fmt.Errorf("too large for GitHub to give its text")
	}
	return err
}

// partOrder orders audit parts by their number; archiveOrder archives by path.
func partOrder(p string) int {
	n, err := strconv.Atoi(strings.TrimSuffix(path.Base(p), ".jsonl"))
	if err != nil {
		return -1
	}
	return n
}

func archiveOrder(string) int { return 0 }

func sortedKeys(m map[string]string, num func(string) int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if a, b := num(keys[i]), num(keys[j]); a != b {
			return a < b
		}
		return keys[i] < keys[j]
	})
	return keys
}
