package state

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// AuditRead is what the audit command reads at the state branch's head: the subject's
// file, its audit parts and its archived runs, path → text ("" for a file GitHub gave
// no whole text of).
type AuditRead struct {
	File     *BranchFile
	Parts    map[string]string
	Archives map[string]string
}

// TrailRow is a row of a subject's trail. Unverified, when set, says why the file it was
// read from is not vouched for: a part or an archive whose SHA-256 the subject's file
// does not record, or a subject's file that is not trusted.
type TrailRow struct {
	AuditEntry
	Unverified string `json:"unverified,omitempty"`
}

// Trail is a subject's whole trail, oldest first: every transition of its runs, live
// and archived, each row its history kept and each row the audit holds of it. Problems
// are the files that could not be read, whose rows are missing. The subject's file is
// verified as a run verifies it (signed by GitHub; with keys, signed with the state key),
// and it vouches for the parts and archives whose SHA-256 it records.
func Trail(subject string, r AuditRead, keys *Keys) (rows []TrailRow, problems []string) {
	var runs []*model.Run
	var tail *AuditTail
	fileWhy := "no subject's file records it"
	if f := r.File; f != nil {
		whole, err := decodeWhole(f.Text, subject)
		if err != nil || f.Truncated {
			problems = append(problems, fmt.Sprintf("%s: %v", f.Path, orTruncated(err)))
		} else {
			runs, tail = whole.Runs, whole.Audit
			fileWhy = auditFileTrust(f, subject, keys)
		}
	}
	sums := vouchedSums(tail, r.Parts)
	why := map[*model.Run]string{}
	for _, run := range runs {
		why[run] = fileWhy
	}
	for _, p := range sortedKeys(r.Archives, archiveOrder) {
		var run model.Run
		if err := json.Unmarshal([]byte(r.Archives[p]), &run); err != nil || run.ID == "" {
			problems = append(problems, fmt.Sprintf("%s: %v", p, orTruncated(err)))
			continue
		}
		runs = append(runs, &run)
		why[&run] = vouched(p, r.Archives[p], sums, fileWhy)
	}
	cut := map[string][]TrailRow{}
	var order []string
	add := func(e AuditEntry, why string) {
		if _, ok := cut[e.Run]; !ok {
			order = append(order, e.Run)
		}
		cut[e.Run] = append(cut[e.Run], TrailRow{AuditEntry: e, Unverified: why})
	}
	for _, p := range sortedKeys(r.Parts, partOrder) {
		if isSumsFile(p) {
			continue
		}
		es, err := parseAuditLines(r.Parts[p])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", p, err))
		}
		partWhy := vouched(p, r.Parts[p], sums, fileWhy)
		for _, e := range es {
			add(e, partWhy)
		}
	}
	if tail != nil {
		for _, e := range tail.Rows {
			add(e, fileWhy)
		}
	}
	return mergeTrail(runs, why, cut, order), problems
}

// auditFileTrust says why the subject's file f is not trusted, "" when it is: signed by
// GitHub and, with keys, signed with the state key. The audit command does not know the
// action's identity, so the commit's author is not checked; the state key is what binds
// the file to the action.
func auditFileTrust(f *BranchFile, subject string, keys *Keys) string {
	_, sum := splitFileMAC(f.Text)
	switch {
	case !f.Signed:
		return fmt.Sprintf("%s was last changed by a commit that GitHub did not sign (commit %.7s): not written through GitHub's API by this action", f.Path, f.Commit)
	case !keys.Set() && sum != "":
		return f.Path + " is signed with a state key, and none was given to verify it (INPUT_STATE_KEY)"
	}
	if why := VerifyFile(f.Text, f.Path, subject, keys); why != "" {
		return why
	}
	return ""
}

// vouched says why the part or archive at path, holding text, is not vouched for by the
// subject's file, which vouches for sums (vouchedSums) and is not trusted for fileWhy (""
// when it is); "" when it is vouched for.
func vouched(path, text string, sums map[string]string, fileWhy string) string {
	sum := sums[path]
	switch {
	case fileWhy != "":
		return path + ": the subject's file that would vouch for it is not trusted: " + fileWhy
	case sum == "":
		return path + ": the subject's file records no SHA-256 of it (not written by this action, or by a version that recorded none)"
	case sum != textSum(text):
		return path + ": changed since this action wrote it (its SHA-256 is not the one the subject's file records)"
	}
	return ""
}

// mergeTrail puts each run's cut rows between the first rows its history keeps and the
// newest, and orders all by time (a run's own order kept). why says of each run whether
// the file it was read from is vouched for.
func mergeTrail(runs []*model.Run, why map[*model.Run]string, cut map[string][]TrailRow, order []string) []TrailRow {
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].StartedAt.Before(runs[j].StartedAt) })
	var out []TrailRow
	seen := map[string]bool{}
	for _, run := range runs {
		if seen[run.ID] {
			continue
		}
		seen[run.ID] = true
		head := 0
		if run.HistoryCut > 0 {
			head = min(model.HistoryHead, len(run.History))
		}
		for _, t := range run.History[:head] {
			out = append(out, TrailRow{AuditEntry: auditEntry(run, t), Unverified: why[run]})
		}
		out = append(out, cut[run.ID]...)
		for _, t := range run.History[head:] {
			out = append(out, TrailRow{AuditEntry: auditEntry(run, t), Unverified: why[run]})
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
