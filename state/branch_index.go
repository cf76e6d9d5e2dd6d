package state

import (
	"context"
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine"
)

// indexWrite is what a save writes of the index: files, and the text of the subject's
// shard and of IndexFile after it ("" when absent).
type indexWrite struct {
	files         []FileChange
	shard, legacy string
}

// indexChanges returns what a save of live over v writes of the index: the subject's
// shard when its entries change; and, while IndexFile is on the branch, what migrate
// writes. An IndexFile GitHub gave only part of is left as it is: its runs are listed
// again as their subjects' states are written.
func (s *BranchStore) indexChanges(ctx context.Context, live *engine.State, v Version, due time.Time) (indexWrite, error) {
	out := indexWrite{shard: v.Shard, legacy: v.Index}
	if f := s.read.Index; f != nil && v.Index != "" && v.Index == f.Text {
		if f.Truncated {
			s.logf("%s on %s is too large for GitHub to give its text; it is left as it is, and %s/ lists each subject again once its state is written",
				f.Path, s.read.Name, IndexDir)
		} else {
			return s.migrate(ctx, live, v, due)
		}
	}
	base, keep, err := s.shard(v)
	if err != nil || keep {
		return out, err
	}
	text, changed, err := s.shardText(ShardFile(s.file), base, live, v.Shard, due)
	if err != nil || !changed {
		return out, err
	}
	out.files = append(out.files, FileChange{Path: ShardFile(s.file), Text: text})
	out.shard = text
	return out, nil
}

// shard is the subject's shard as v holds it, when it can be trusted; nil means an empty
// one. A shard someone else changed is written anew: it lists the runs of the subjects
// written since. keep says to leave the shard as it is: GitHub gave only part of its text.
func (s *BranchStore) shard(v Version) (idx *Index, keep bool, err error) {
	if v.Shard == "" {
		return nil, false, nil
	}
	if f := s.read.Shard; f != nil && f.Text == v.Shard {
		if why := TrustFile(f, s.viewer); why != "" {
			s.logf("the index of open runs is not trusted (%s); %s is written anew, and lists each subject again once its state is written", why, f.Path)
			return nil, false, nil
		}
		if f.Truncated {
			s.logf("%s on %s is too large for GitHub to give its text; it is left as it is and no longer lists every open run", f.Path, s.read.Name)
			return nil, true, nil
		}
	}
	if idx, err = DecodeIndex(v.Shard); err != nil {
		return nil, false, fmt.Errorf("reading %s on %s: %w (deleting the file makes the next events write it anew)", ShardFile(s.file), s.read.Name, err)
	}
	return idx, false, nil
}

// shardText is the shard path holding base with the subject's entries those of live (and
// the end of a claim, due, when not zero), and whether it differs from old (its text read;
// "" when absent). An absent shard is not
// written for a subject without open runs.
func (s *BranchStore) shardText(path string, base *Index, live *engine.State, old string, due time.Time) (string, bool, error) {
	next := base.WithSubject(s.file, live).withClaimDue(s.file, s.subject, due)
	if old == "" && len(next.Runs) == 0 {
		return "", false, nil
	}
	text, err := EncodeIndex(next)
	if err != nil || text == old {
		return old, false, err
	}
	if len(text) > IndexWarning {
		s.logf("%s on %s is %d bytes, half-way to the %d bytes GitHub's GraphQL gives of a file: a shard cut there "+
			"is no longer read and the sweep leaves its runs out; finish or cancel open runs (pipeline-action status lists them)",
			path, s.read.Name, len(text), GitHubBlobText)
	}
	return text, true, nil
}

// migrate reads the whole index at the head v read (one more query, once per branch: the
// facts query reads IndexFile without the commit that last changed it) and writes every
// shard with IndexFile's entries, the subject's those of live, deleting IndexFile.
// IndexFile's entries replace a shard's subject by subject (on the branch, it was written
// after the shards). An IndexFile someone else wrote is deleted, its entries dropped.
func (s *BranchStore) migrate(ctx context.Context, live *engine.State, v Version, due time.Time) (indexWrite, error) {
	all, err := s.w.OpenRuns(ctx, s.read.Name)
	if err != nil {
		return indexWrite{}, fmt.Errorf("reading the index on %s to move %s into %s/: %w", s.read.Name, IndexFile, IndexDir, err)
	}
	if all.Head != v.Head {
		return indexWrite{}, fmt.Errorf("reading the index on %s: the branch moved to %.7s since %.7s was read: %w", s.read.Name, all.Head, v.Head, ErrConflict)
	}
	legacy := &Index{Version: indexVersion}
	if f := all.Index; f != nil {
		if why := TrustFile(f, s.viewer); why != "" {
			s.logf("the index of open runs is not trusted (%s); it is deleted, and %s/ lists each subject again once its state is written", why, IndexDir)
		} else if legacy, err = DecodeIndex(f.Text); err != nil {
			return indexWrite{}, fmt.Errorf("reading %s on %s at %.7s: %w (deleting the file makes the next events write the index anew)", f.Path, s.read.Name, f.Commit, err)
		}
	}
	shards := map[string]*Index{}
	old := map[string]string{}
	for _, f := range all.Shards {
		old[f.Path] = f.Text
		one := IndexRead{}
		shards[f.Path] = one.trusted(f, s.viewer, s.read.Name)
		for _, w := range append(one.Warnings, one.Errors...) {
			s.logf("%s", w)
		}
	}
	for _, e := range legacy.Runs {
		p := ShardFile(e.File)
		if shards[p] == nil {
			shards[p] = &Index{Version: indexVersion}
		}
	}
	for p, idx := range shards {
		shards[p] = mergeLegacy(idx, shardOf(legacy, p))
	}
	out := indexWrite{}
	own := ShardFile(s.file)
	for _, p := range ShardFiles() {
		idx, ok := shards[p]
		if !ok && p != own {
			continue
		}
		text := old[p]
		if p == own {
			text, _, err = s.shardText(p, idx, live, old[p], due)
		} else if idx != nil {
			text, err = EncodeIndex(idx)
		}
		if err != nil {
			return out, err
		}
		if p == own {
			out.shard = text
		}
		if text != old[p] {
			out.files = append(out.files, FileChange{Path: p, Text: text})
		}
	}
	s.logf("moved the %d open runs of %s into %s/ on %s", len(legacy.Runs), IndexFile, IndexDir, s.read.Name)
	out.files = append(out.files, FileChange{Path: IndexFile, Delete: true})
	return out, nil
}

// shardOf are the entries of idx that belong in shard path.
func shardOf(idx *Index, path string) *Index {
	out := &Index{Version: indexVersion}
	for _, e := range idx.Runs {
		if ShardFile(e.File) == path {
			out.Runs = append(out.Runs, e)
		}
	}
	return out
}
