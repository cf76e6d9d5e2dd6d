package state

import (
	"fmt"
	"sort"
)

// IndexRead is the index as a reader of every open run finds it on the branch (ReadIndex).
type IndexRead struct {
	Index *Index
	// Files are the index files whose entries Index holds.
	Files []*BranchFile
	// Warnings say which files were left out, and why: written by someone else than the
	// action (anyone who can push to the branch could list any subject there), or, for
	// IndexFile, too large for GitHub to give its text (the shards list each subject
	// again once its state is written).
	Warnings []string
	// Errors say which shards were left out because they could not be read.
	Errors []string
}

// ReadIndex merges the index files read (BranchRead.Shards and Index) that viewer, the
// action's identity, wrote; viewer "" takes every file, whoever wrote it (the status,
// which says who wrote each). IndexFile, while on the branch, was written after the shards
// (by an older action that knows none): its entries replace theirs, subject by subject.
func ReadIndex(read BranchRead, viewer string) IndexRead {
	var out IndexRead
	merged := &Index{Version: indexVersion}
	for _, f := range read.Shards {
		if idx := out.trusted(f, viewer, read.Name); idx != nil {
			merged.Runs = append(merged.Runs, idx.Runs...)
		}
	}
	if f := read.Index; f != nil {
		if idx := out.trusted(f, viewer, read.Name); idx != nil {
			merged = mergeLegacy(merged, idx)
		}
	}
	sort.SliceStable(merged.Runs, func(i, j int) bool {
		a, b := merged.Runs[i], merged.Runs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Run < b.Run
	})
	out.Index = merged
	return out
}

// trusted decodes f when viewer wrote it and GitHub gave its whole text; otherwise it
// notes why f is left out and returns nil.
func (r *IndexRead) trusted(f *BranchFile, viewer, branch string) *Index {
	if why := TrustFile(f, viewer); viewer != "" && why != "" {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the index of open runs is not trusted (%s); its runs are left out until their subjects' states are written", why))
		return nil
	}
	if f.Truncated {
		msg := fmt.Sprintf("%s on %s is too large for GitHub to give its text; its runs are left out", f.Path, branch)
		if f.Path == IndexFile {
			r.Warnings = append(r.Warnings, msg+" until their subjects' states are written")
		} else {
			r.Errors = append(r.Errors, msg)
		}
		return nil
	}
	idx, err := DecodeIndex(f.Text)
	if err != nil {
		r.Errors = append(r.Errors, fmt.Sprintf("reading %s on %s at %.7s: %v", f.Path, branch, f.Commit, err))
		return nil
	}
	r.Files = append(r.Files, f)
	return idx
}

// mergeLegacy returns idx with the entries of legacy (IndexFile) in place of its own for
// each file legacy lists.
func mergeLegacy(idx, legacy *Index) *Index {
	byFile := map[string][]IndexEntry{}
	var files []string
	for _, e := range legacy.Runs {
		if _, ok := byFile[e.File]; !ok {
			files = append(files, e.File)
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	for _, file := range files {
		idx = idx.withEntries(file, byFile[file])
	}
	return idx
}
