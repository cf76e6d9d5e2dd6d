package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// Large outputs and the state's budget.
//
// A stage's outputs whose JSON is longer than InlineOutputs are not kept in the state:
// they live in their own file on the state branch, outputs/pr-7/<sha256>.json, named by
// the SHA-256 of its text. The state — the subject's file and the comment's marker alike —
// keeps in their place an engine.OutputsFile: the path, that digest, the size and the
// outputs' keys. The marker is bound to its comment (and signed with the state key), so
// the digest binds the file's content: a file changed or swapped on the branch does not
// match it and is not used. The facts query reads the subject's outputs directory with
// the subject's file, at the same head: it costs no request.
//
// The whole state has a budget: its marker at most StateBudget characters (the rest of
// the comment's 65,536 is the status), and the subject's outputs files at most
// OutputsBudget bytes (each event reads them). Budget says whether a state keeps to it;
// a report that would break it is refused before anything is written (cmd/internal/run),
// so a state once saved can always be saved again.
//
// Where the branch may not be written (Dual.Forbidden), the comment is the only store and
// the outputs stay inline in its marker: the marker's budget then holds them all.
const (
	// InlineOutputs is the longest JSON of a stage's outputs kept inline in the state.
	InlineOutputs = 1 << 10
	// StateBudget is the most characters a state's marker may take in its comment.
	StateBudget = 48 << 10
	// OutputsBudget is the most bytes the outputs files of one subject may hold: well below
	// GitHubBlobText, so that no file of them is ever cut when the facts query reads it.
	OutputsBudget = 256 << 10
	// GitHubBlobText is the most bytes of a file's text GitHub's GraphQL gives (Blob.text);
	// a longer file comes cut, with isTruncated, and is not decoded.
	GitHubBlobText = 512_000
	// IndexWarning is the size of index.json past which each write warns: the index grows
	// with the open runs of the repository, and one cut by GitHub is no longer read.
	IndexWarning = GitHubBlobText / 2
	// maxSummaryKeys and maxSummaryKey bound the keys an OutputsFile lists.
	maxSummaryKeys = 16
	maxSummaryKey  = 64
)

// OutputsDir is the directory of the outputs files of the subject whose state file is
// file: outputs/pr-7.
func OutputsDir(file string) string { return "outputs/" + subjectName(file) }

// externalize returns st with the outputs longer than InlineOutputs replaced by their
// OutputsFile, and those files (path → text). st is not modified: the stages it changes
// are copies. A stage whose outputs could not be put back when loaded (OutputsFile set,
// Outputs nil) keeps its OutputsFile.
func externalize(st *model.State, file string) (*model.State, map[string]string, error) {
	files := map[string]string{}
	out := *st
	out.Runs = make([]*model.Run, len(st.Runs))
	for i, r := range st.Runs {
		rc := *r
		rc.Stages = make(map[string]*model.StageRun, len(r.Stages))
		for id, sr := range r.Stages {
			rc.Stages[id] = sr
			if sr == nil || len(sr.Outputs) == 0 {
				continue
			}
			js, err := json.Marshal(sr.Outputs)
			if err != nil {
				return nil, nil, fmt.Errorf("encoding the outputs of stage %q of run %s: %w", id, r.ID, err)
			}
			if len(js) <= InlineOutputs {
				if sr.OutputsFile != nil {
					c := *sr
					c.OutputsFile = nil
					rc.Stages[id] = &c
				}
				continue
			}
			text := string(js) + "\n"
			sum := sha256.Sum256([]byte(text))
			digest := hex.EncodeToString(sum[:])
			path := OutputsDir(file) + "/" + digest + ".json"
			files[path] = text
			c := *sr
			c.Outputs = nil
			c.OutputsFile = &model.OutputsFile{Path: path, Digest: digest, Bytes: len(text), Keys: summaryKeys(sr.Outputs)}
			rc.Stages[id] = &c
		}
		out.Runs[i] = &rc
	}
	return &out, files, nil
}

// summaryKeys are the outputs' keys, sorted, bounded in number and length.
func summaryKeys(outputs map[string]any) []string {
	keys := make([]string, 0, len(outputs))
	for k := range outputs {
		if len(k) > maxSummaryKey {
			k = strings.ToValidUTF8(k[:maxSummaryKey], "") + "…"
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > maxSummaryKeys {
		keys = append(keys[:maxSummaryKeys], fmt.Sprintf("and %d more", len(keys)-maxSummaryKeys))
	}
	return keys
}

// resolve puts back the outputs st's OutputsFiles name, from files (the subject's
// outputs directory as read: path → text). A file that is missing, or whose text is not
// the one its digest names, is not used: the stage goes on without those outputs, its
// OutputsFile stays in the state (nothing is discarded), and it is returned, to be
// reported once (State.Ignored).
func resolve(st *model.State, files map[string]string) []model.IgnoredComment {
	var ignored []model.IgnoredComment
	for _, r := range st.Runs {
		for _, id := range sortedStageIDs(r) {
			sr := r.Stages[id]
			ref := sr.OutputsFile
			if ref == nil || sr.Outputs != nil {
				continue
			}
			outputs, why := readOutputs(ref, files)
			if why != "" {
				ignored = append(ignored, model.IgnoredComment{File: ref.Path,
					Why: fmt.Sprintf("the outputs of stage %s of run %s %s; the stage goes on without them", id, r.ID, why)})
				continue
			}
			sr.Outputs, sr.OutputsFile = outputs, nil
		}
	}
	return ignored
}

// readOutputs decodes the outputs file ref names from files; why says what is wrong with it.
func readOutputs(ref *model.OutputsFile, files map[string]string) (map[string]any, string) {
	text, ok := files[ref.Path]
	if !ok {
		return nil, fmt.Sprintf("are in %s, which is not on the state branch", ref.Path)
	}
	sum := sha256.Sum256([]byte(text))
	if hex.EncodeToString(sum[:]) != ref.Digest {
		return nil, fmt.Sprintf("are in %s, whose content is not the one the state's digest names (the file was changed or replaced on the branch)", ref.Path)
	}
	var outputs map[string]any
	if err := json.Unmarshal([]byte(text), &outputs); err != nil || outputs == nil {
		return nil, fmt.Sprintf("are in %s, which does not hold a JSON object", ref.Path)
	}
	return outputs, ""
}

func sortedStageIDs(r *model.Run) []string {
	ids := make([]string, 0, len(r.Stages))
	for id := range r.Stages {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// BudgetError says that a state would not keep to its budget.
type BudgetError struct {
	Subject string
	What    string // "its marker in the state comment", "its outputs files"
	Size    int
	Limit   int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the state of %s would take %d characters in %s, over its budget of %d", e.Subject, e.Size, e.What, e.Limit)
}

// Budget says whether st, as the store would save it, keeps to the state's budget: a
// *BudgetError when it does not. inline is for a store whose branch may not be written:
// every output then stays in the marker. file is the subject's state file.
func Budget(st *model.State, file string, inline bool) error {
	live, _ := Compact(st)
	kept := live
	if !inline {
		var files map[string]string
		var err error
		if kept, files, err = externalize(live, file); err != nil {
			return err
		}
		total := 0
		for _, text := range files {
			total += len(text)
		}
		if total > OutputsBudget {
			return &BudgetError{Subject: subject(st), What: "its outputs files on the state branch", Size: total, Limit: OutputsBudget}
		}
	}
	payload, err := encodePayload(kept)
	if err != nil {
		return err
	}
	if n := markerRoom(payload); n > StateBudget {
		return &BudgetError{Subject: subject(st), What: "the marker of its state comment", Size: n, Limit: StateBudget}
	}
	return nil
}

// markerRoom is what the marker of payload takes once bound: the longest comment id,
// commit and HMAC, and the newline before it.
func markerRoom(payload string) int {
	return len(sealMarker("", 0, payload)) + maxIDDigits + maxCommitLen + macRoom + 1
}

// outputChanges are the changes that make the subject's outputs files present (at the
// head read) the files outputs: each missing or different one written, each other one
// deleted — but for the files of outputs that could not be put back when loaded (their
// OutputsFile stays in live), which are left as they are.
func outputChanges(live *model.State, outputs, present map[string]string) []FileChange {
	var changes []FileChange
	for _, p := range slices.Sorted(maps.Keys(outputs)) {
		if t, ok := present[p]; !ok || t != outputs[p] {
			changes = append(changes, FileChange{Path: p, Text: outputs[p]})
		}
	}
	keep := map[string]bool{}
	for _, p := range unresolvedFiles(live) {
		keep[p] = true
	}
	for _, p := range slices.Sorted(maps.Keys(present)) {
		if _, ok := outputs[p]; !ok && !keep[p] {
			changes = append(changes, FileChange{Path: p, Delete: true})
		}
	}
	return changes
}

// unresolvedFiles are the files of the OutputsFiles st still holds.
func unresolvedFiles(st *model.State) []string {
	var out []string
	for _, r := range st.Runs {
		for _, sr := range r.Stages {
			if sr != nil && sr.OutputsFile != nil && sr.Outputs == nil {
				out = append(out, sr.OutputsFile.Path)
			}
		}
	}
	return out
}
