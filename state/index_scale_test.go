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
