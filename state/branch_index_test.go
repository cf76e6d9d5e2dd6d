package state

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// saveSubject saves st as the state of pull request n, read from m, and returns the
// files of the commit made (nil for none).
func saveSubject(t *testing.T, m *memBranch, n int, old, st *model.State) []FileChange {
	t.Helper()
	var commits [][]FileChange
	w := &recordingWriter{memBranch: m, commits: &commits}
	file, subject := SubjectFile(true, n), fmt.Sprintf("acme/widgets#%d", n)
	s := NewBranchStore(w, m.read(file), file, subject, viewer, nil)
	_, v, err := s.Load(t.Context(), n)
	require.NoError(t, err)
	_, err = s.Save(t.Context(), n, Change{Old: old, State: st}, v)
	require.NoError(t, err)
	if len(commits) == 0 {
		return nil
	}
	return commits[0]
}

func paths(files []FileChange) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

// A save writes the subject's shard only, and only when its entries change.
func TestSaveWritesItsShardOnlyWhenItsEntriesChange(t *testing.T) {
	m := newMemBranch()
	seedOpenRuns(t, m, 100, false)
	shards := len(m.files)
	one := func(deadline time.Time, stage string) *model.State {
		r := openRun(7, deadline)
		r.Stage, r.Stages[stage] = stage, r.Stages["approval"]
		return &model.State{Version: stateVersion, Subject: "acme/widgets#7", Runs: []*model.Run{r}}
	}
	st := one(t0.Add(7*time.Minute), "approval")
	files := saveSubject(t, m, 7, nil, st)
	assert.Equal(t, []string{"pr-7.json"}, paths(files), "the shard lists #7's run as it is")

	st2 := one(t0.Add(7*time.Minute), "approval")
	st2.Runs[0].Stages["approval"].Results = []model.GateResult{{Check: "ci_status", Status: model.GatePending}}
	files = saveSubject(t, m, 7, st, st2)
	assert.Equal(t, []string{"pr-7.json"}, paths(files), "a gate's result is no entry of the index")

	files = saveSubject(t, m, 7, st2, one(t0.Add(time.Hour), "approval"))
	assert.Equal(t, []string{"pr-7.json", ShardFile("pr-7.json")}, paths(files), "a deadline moved")
	assert.Len(t, m.files, shards+1)
	got := ReadIndex(m.mustOpenRuns(t), viewer)
	assert.Empty(t, got.Warnings)
	assert.Len(t, got.Index.Runs, 100)
}

func (m *memBranch) mustOpenRuns(t *testing.T) BranchRead {
	t.Helper()
	r, err := m.OpenRuns(t.Context(), m.name)
	require.NoError(t, err)
	return r
}

// The first save that reads index.json of an older action moves its entries into the
// shards, with its own, and deletes it; the next saves touch their shard only.
func TestSaveMovesIndexFileIntoShards(t *testing.T) {
	m := newMemBranch()
	seedOpenRuns(t, m, 200, true)
	legacy, err := DecodeIndex(m.files[IndexFile])
	require.NoError(t, err)
	st := &model.State{Version: stateVersion, Subject: "acme/widgets#7", Runs: []*model.Run{openRun(7, t0.Add(time.Hour))}}
	files := saveSubject(t, m, 7, nil, st)
	assert.Contains(t, m.calls, "read index", "every shard is read once, to merge")
	assert.NotContains(t, m.files, IndexFile)
	assert.Equal(t, FileChange{Path: IndexFile, Delete: true}, files[len(files)-1])
	assert.Len(t, files, 2+IndexShards, "the subject's file, every shard, index.json deleted")
	got := ReadIndex(m.mustOpenRuns(t), viewer)
	require.Len(t, got.Index.Runs, len(legacy.Runs))
	for i, e := range got.Index.Runs {
		want := legacy.Runs[i]
		if e.File == "pr-7.json" {
			want.NextDeadline = t0.Add(time.Hour)
		}
		assert.Equal(t, want, e)
	}

	m.calls = nil
	files = saveSubject(t, m, 8, nil, &model.State{Version: stateVersion, Subject: "acme/widgets#8", Runs: []*model.Run{openRun(8, t0)}})
	assert.Equal(t, []string{"pr-8.json", ShardFile("pr-8.json")}, paths(files))
	assert.NotContains(t, m.calls, "read index")
}

// An index.json on the branch next to shards was written after them (by an older action
// again): its entries win, subject by subject, for readers and for the move.
func TestIndexFileWinsOverShards(t *testing.T) {
	m := newMemBranch()
	seedOpenRuns(t, m, 3, false)
	newer := (&Index{}).WithSubject("pr-2.json", &model.State{Runs: []*model.Run{openRun(2, t0.Add(time.Hour))}})
	seedIndex(t, m, newer, true)
	got := ReadIndex(m.mustOpenRuns(t), viewer)
	require.Len(t, got.Index.Runs, 3)
	assert.Equal(t, t0.Add(time.Hour), got.Index.Runs[1].NextDeadline)

	saveSubject(t, m, 9, nil, &model.State{Version: stateVersion, Subject: "acme/widgets#9"})
	assert.NotContains(t, m.files, IndexFile)
	assert.Equal(t, got.Index.Runs, ReadIndex(m.mustOpenRuns(t), viewer).Index.Runs)
}

// The move reads every shard at the head the save read: a head that moved is a conflict.
func TestIndexMoveConflictsWhenTheHeadMoved(t *testing.T) {
	m := newMemBranch()
	seedOpenRuns(t, m, 3, true)
	s := NewBranchStore(m, m.read("pr-7.json"), "pr-7.json", "acme/widgets#7", viewer, nil)
	_, v, err := s.Load(t.Context(), 7)
	require.NoError(t, err)
	m.push(viewer, true, []FileChange{{Path: "pr-8.json", Text: "{}"}}, "another event")
	_, err = s.Save(t.Context(), 7, Change{State: &model.State{Version: stateVersion, Subject: "acme/widgets#7"}}, v)
	require.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, m.files, IndexFile)
}

// A reader leaves out a shard someone else pushed, and says why.
func TestReadIndexLeavesOutUntrustedShards(t *testing.T) {
	m := newMemBranch()
	seedOpenRuns(t, m, 40, false)
	forged := ShardFile("pr-1.json")
	m.push("mallory", false, []FileChange{{Path: forged, Text: `{"version":1,"runs":[{"run":"x/99/1","file":"pr-99.json"}]}`}}, "forged")
	got := ReadIndex(m.mustOpenRuns(t), viewer)
	require.Len(t, got.Warnings, 1)
	assert.Contains(t, got.Warnings[0], "the index of open runs is not trusted")
	for _, e := range got.Index.Runs {
		assert.NotEqual(t, forged, ShardFile(e.File))
	}
	assert.Greater(t, len(got.Index.Runs), 30)
	assert.Len(t, ReadIndex(m.mustOpenRuns(t), "").Index.Runs, len(got.Index.Runs)+1, "viewer \"\" takes every file")
	assert.True(t, strings.HasPrefix(forged, IndexDir+"/"))
}

// openRun is the one open run of pull request n, waiting for a timeout at deadline.
func openRun(n int, deadline time.Time) *model.Run {
	subject := fmt.Sprintf("acme/widgets#%d", n)
	return &model.Run{ID: fmt.Sprintf("auto-merge/%d/1", n), Pipeline: "auto-merge", Subject: subject,
		Status: model.RunWaiting, Stage: "approval", StartedAt: t0, UpdatedAt: t0,
		Stages: map[string]*model.StageRun{"approval": {Status: model.StageWaiting, Attempt: 1, EnteredAt: t0,
			Deadlines: []model.Deadline{{Kind: model.DeadlineTimeout, At: deadline}}}}}
}

// seedOpenRuns puts on m the index of n pull requests with one open run each, as the
// action writes it.
func seedOpenRuns(tb testing.TB, m *memBranch, n int, legacy bool) {
	tb.Helper()
	idx := &Index{}
	for i := 1; i <= n; i++ {
		one := (&Index{}).WithSubject(SubjectFile(true, i), &model.State{Runs: []*model.Run{openRun(i, t0.Add(time.Duration(i)*time.Minute))}})
		idx.Runs = append(idx.Runs, one.Runs...)
	}
	seedIndex(tb, m, idx, legacy)
}

// saveIndexBytes is what one save of a subject at n open runs writes of the index: its bytes,
// and the size of the largest index file on the branch after it.
func saveIndexBytes(tb testing.TB, n int, legacy bool) (written, largest int) {
	tb.Helper()
	m := newMemBranch()
	seedOpenRuns(tb, m, n, legacy)
	before := len(m.messages)
	file, subject := SubjectFile(true, 7), "acme/widgets#7"
	old := &model.State{Version: stateVersion, Subject: subject, Runs: []*model.Run{openRun(7, t0.Add(7*time.Minute))}}
	st := &model.State{Version: stateVersion, Subject: subject, Runs: []*model.Run{openRun(7, t0.Add(time.Hour))}}
	var commits [][]FileChange
	w := &recordingWriter{memBranch: m, commits: &commits}
	s := NewBranchStore(w, m.read(file), file, subject, viewer, nil)
	_, v, err := s.Load(context.Background(), 7)
	require.NoError(tb, err)
	_, err = s.Save(context.Background(), 7, Change{Old: old, State: st}, v)
	require.NoError(tb, err)
	require.Len(tb, m.messages, before+1)
	for _, c := range commits {
		for _, f := range c {
			if isIndexPath(f.Path) {
				written += len(f.Text)
			}
		}
	}
	for p, text := range m.files {
		if isIndexPath(p) && len(text) > largest {
			largest = len(text)
		}
	}
	return written, largest
}

// recordingWriter is a memBranch that keeps the files of every commit.
type recordingWriter struct {
	*memBranch
	commits *[][]FileChange
}

func (w *recordingWriter) CommitFiles(ctx context.Context, branch, expected string, files []FileChange, headline, body string) (string, error) {
	*w.commits = append(*w.commits, files)
	return w.memBranch.CommitFiles(ctx, branch, expected, files, headline, body)
}

func isIndexPath(p string) bool { return p == IndexFile || strings.HasPrefix(p, "index/") }

// BenchmarkIndexWrite reports, at 1,000 and 3,000 open runs, the bytes of the index one
// save that moves a deadline writes, and the largest index file (GitHub gives no text of a
// file past GitHubBlobText bytes); "migrate" is the save that finds IndexFile of an older
// action, once per branch.
func BenchmarkIndexWrite(b *testing.B) {
	for _, c := range []struct {
		name   string
		n      int
		legacy bool
	}{{"1000", 1000, false}, {"3000", 3000, false}, {"migrate-1000", 1000, true}} {
		b.Run(c.name, func(b *testing.B) {
			var written, largest int
			for i := 0; i < b.N; i++ {
				written, largest = saveIndexBytes(b, c.n, c.legacy)
			}
			b.ReportMetric(float64(written), "index-bytes/save")
			b.ReportMetric(float64(largest), "largest-index-file-bytes")
		})
	}
}

// seedIndex writes idx to m as the action does: in shards, or in IndexFile as an older
// action does (legacy).
func seedIndex(tb testing.TB, m *memBranch, idx *Index, legacy bool) {
	tb.Helper()
	if legacy {
		text, err := EncodeIndex(idx)
		require.NoError(tb, err)
		m.push(viewer, true, []FileChange{{Path: IndexFile, Text: text}}, "seed")
		return
	}
	var files []FileChange
	for _, p := range ShardFiles() {
		text, err := EncodeIndex(shardOf(idx, p))
		require.NoError(tb, err)
		files = append(files, FileChange{Path: p, Text: text})
	}
	m.push(viewer, true, files, "seed")
}

// At 3,000 open runs, what one save writes of the index and its largest file stay far
// from the GitHubBlobText bytes past which GitHub gives no text (one index.json of them
// all is 870 KB).
func TestIndexAtThreeThousandOpenRuns(t *testing.T) {
	written, largest := saveIndexBytes(t, 3000, false)
	assert.Less(t, largest, GitHubBlobText/8)
	assert.LessOrEqual(t, written, largest)
	assert.Greater(t, written, 0, "the save moved #7's deadline")
}
