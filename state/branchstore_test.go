package state

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memBranch is a state branch in memory, with compare-and-swap as GitHub does it.
type memBranch struct {
	name      string
	exists    bool
	head      string
	files     map[string]string
	last      map[string]string // path → the commit that last changed it
	author    map[string]string // commit → author
	signed    map[string]bool
	messages  []string
	calls     []string
	forbidden bool
	n         int
}

func newMemBranch() *memBranch {
	return &memBranch{name: "pipeline-action/state", files: map[string]string{}, last: map[string]string{},
		author: map[string]string{}, signed: map[string]bool{}}
}

func (m *memBranch) commitID() string {
	m.n++
	sum := sha1.Sum([]byte(fmt.Sprint(m.n)))
	return hex.EncodeToString(sum[:])
}

func (m *memBranch) CreateBranch(_ context.Context, repoID, name, oid string) error {
	m.calls = append(m.calls, "createRef "+name)
	switch {
	case m.forbidden:
		return fmt.Errorf("refused by a ruleset: %w", ErrForbidden)
	case m.exists:
		return fmt.Errorf("reference already exists: %w", ErrConflict)
	}
	m.exists, m.head = true, oid
	return nil
}

func (m *memBranch) CommitFiles(_ context.Context, branch, expected string, files []FileChange, headline, body string) (string, error) {
	m.calls = append(m.calls, "commit")
	switch {
	case m.forbidden:
		return "", fmt.Errorf("refused by a ruleset: %w", ErrForbidden)
	case !m.exists || expected != m.head:
		return "", fmt.Errorf("head moved: %w", ErrConflict)
	}
	return m.push(viewer, true, files, headline+"\n\n"+body), nil
}

// push commits files as author, signed by GitHub or not.
func (m *memBranch) push(author string, signed bool, files []FileChange, msg string) string {
	c := m.commitID()
	m.author[c], m.signed[c] = author, signed
	for _, f := range files {
		if f.Delete {
			delete(m.files, f.Path)
			delete(m.last, f.Path)
			continue
		}
		m.files[f.Path] = f.Text
		m.last[f.Path] = c
	}
	m.head, m.exists = c, true
	m.messages = append(m.messages, strings.TrimSpace(msg))
	return c
}

// read is what the facts query would read of the branch for file.
func (m *memBranch) read(file string) BranchRead {
	r := BranchRead{Name: m.name, Exists: m.exists, RepoID: "R_1", DefaultHead: strings.Repeat("d", 40)}
	if !m.exists {
		return r
	}
	r.Head = m.head
	at := func(p string) *BranchFile {
		text, ok := m.files[p]
		if !ok {
			return nil
		}
		c := m.last[p]
		return &BranchFile{Path: p, Text: text, Commit: c, Author: m.author[c], Signed: m.signed[c]}
	}
	r.File, r.Index, r.Shard = at(file), at(IndexFile), at(ShardFile(file))
	if r.Index != nil { // the facts query reads no commit of index.json
		r.Index = &BranchFile{Path: IndexFile, Text: r.Index.Text}
	}
	for p, text := range m.files {
		if strings.HasPrefix(p, OutputsDir(file)+"/") {
			if r.Outputs == nil {
				r.Outputs = map[string]string{}
			}
			r.Outputs[p] = text
		}
	}
	return r
}

// OpenRuns is what the index query would read of the branch.
func (m *memBranch) OpenRuns(_ context.Context, branch string) (BranchRead, error) {
	m.calls = append(m.calls, "read index")
	r := m.read("")
	if text, ok := m.files[IndexFile]; ok {
		c := m.last[IndexFile]
		r.Index = &BranchFile{Path: IndexFile, Text: text, Commit: c, Author: m.author[c], Signed: m.signed[c]}
	}
	for _, p := range ShardFiles() {
		if text, ok := m.files[p]; ok {
			c := m.last[p]
			r.Shards = append(r.Shards, &BranchFile{Path: p, Text: text, Commit: c, Author: m.author[c], Signed: m.signed[c]})
		}
	}
	return r, nil
}

// subjectStores are the stores one invocation makes from what it read.
// emptySubject is an empty state branch and comment thread, the log its stores write to
// and subject 7's stores over them: what the first event of a subject finds.
func emptySubject() (*memBranch, *fakeWriter, *[]string, *Dual) {
	m, w, logs := newMemBranch(), &fakeWriter{nextID: 1}, &[]string{}
	return m, w, logs, subjectStores(m, w, nil, logs)
}

func subjectStores(m *memBranch, w *fakeWriter, comments []Comment, logs *[]string) *Dual {
	logf := func(f string, a ...any) { *logs = append(*logs, fmt.Sprintf(f, a...)) }
	b := NewBranchStore(m, m.read("pr-7.json"), "pr-7.json", "acme/widgets#7", viewer, logf)
	return NewDual(b, NewCommentStore(w, comments, logf), logf)
}

// commentsOf are the comments the writer holds, as the facts query reads them.
func commentsOf(w *fakeWriter) []Comment {
	var out []Comment
	for id := int64(1); id < 100; id++ {
		if b, ok := w.bodies[id]; ok {
			out = append(out, ours(id, b))
		}
	}
	return out
}

func change(old, st *model.State) Change {
	return Change{Config: testConfig(), Old: old, State: st, Event: Event{Name: "pull_request.opened", Actor: "dev"}}
}

func TestDualFirstWriteCreatesBranchFileIndexAndComment(t *testing.T) {
	ctx := t.Context()
	m, w, logs, d := emptySubject()
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, &model.State{Version: 1}, st)
	next := sampleState()
	v, err = d.Save(ctx, 7, change(st, next), v)
	require.NoError(t, err)
	assert.Equal(t, []string{"createRef pipeline-action/state", "commit"}, m.calls)
	assert.Equal(t, []string{"create #7", "update 1"}, w.calls)
	assert.Equal(t, "pr-7 auto-merge: start → ready (pull_request.opened by dev)", m.messages[0])
	got, err := DecodeFile(m.files["pr-7.json"], "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, next, got)
	assert.NotContains(t, m.files, IndexFile)
	idx, err := DecodeIndex(m.files[ShardFile("pr-7.json")])
	require.NoError(t, err)
	require.Len(t, idx.Runs, 1)
	assert.Equal(t, "auto-merge/7/1", idx.Runs[0].Run)
	assert.Equal(t, m.head, MarkerCommit(w.bodies[1]), "the comment names the commit its state matches")
	assert.Equal(t, m.head, v.FileCommit)

	// The next invocation reads the branch: nothing changed, nothing written.
	m.calls, w.calls = nil, nil
	d = subjectStores(m, w, commentsOf(w), logs)
	st, v, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, next, st)
	_, err = d.Save(ctx, 7, change(st, st), v)
	require.NoError(t, err)
	assert.Empty(t, m.calls)
	assert.Empty(t, w.calls)
}

func TestDualConflict(t *testing.T) {
	ctx := t.Context()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	var logs []string
	a := subjectStores(m, w, nil, &logs)
	b := subjectStores(m, w, nil, &logs)
	sa, va, err := a.Load(ctx, 7)
	require.NoError(t, err)
	sb, vb, err := b.Load(ctx, 7)
	require.NoError(t, err)
	_, err = a.Save(ctx, 7, change(sa, sampleState()), va)
	require.NoError(t, err)
	w.calls = nil
	_, err = b.Save(ctx, 7, change(sb, withSeq(9)), vb)
	require.ErrorIs(t, err, ErrConflict)
	assert.Empty(t, w.calls, "a conflict leaves the comment alone")

	// b reads again: it sees a's state (and a's comment), and wins.
	b = subjectStores(m, w, commentsOf(w), &logs)
	sb, vb, err = b.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, 3, sb.Seq)
	_, err = b.Save(ctx, 7, change(sb, withSeq(4)), vb)
	require.NoError(t, err)
	assert.Equal(t, []string{"update 1"}, w.calls)
}

// Two invocations race on a subject with no file yet: only the one whose commit claimed
// the state comment posts it; the other finds the claim in flight and leaves it.
func TestDualRaceCreatesOneComment(t *testing.T) {
	ctx := t.Context()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	var logs []string
	m.push(viewer, true, []FileChange{{Path: "pr-9.json", Text: "{}"}}, "other") // the branch exists
	a := subjectStores(m, w, nil, &logs)
	sa, va, err := a.Load(ctx, 7)
	require.NoError(t, err)
	b := subjectStores(m, w, nil, &logs)
	sb, vb, err := b.Load(ctx, 7)
	require.NoError(t, err)
	_, err = b.Save(ctx, 7, change(sb, sampleState()), vb)
	require.NoError(t, err)
	_, err = a.Save(ctx, 7, change(sa, sampleState()), va)
	require.ErrorIs(t, err, ErrConflict)
	// a reads again before b's comment shows: it writes the branch, and leaves the comment to b.
	w.calls = nil
	a = subjectStores(m, w, nil, &logs)
	sa, va, err = a.Load(ctx, 7)
	require.NoError(t, err)
	_, err = a.Save(ctx, 7, change(sa, withSeq(4)), va)
	require.NoError(t, err)
	assert.Empty(t, w.calls)
	assert.Len(t, w.bodies, 1)
}

func TestDualForbidden(t *testing.T) {
	ctx := t.Context()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	m.forbidden = true
	var logs []string
	d := subjectStores(m, w, nil, &logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	_, err = d.Save(ctx, 7, change(st, sampleState()), v)
	require.NoError(t, err)
	assert.True(t, d.Forbidden())
	assert.Equal(t, []string{"createRef pipeline-action/state"}, m.calls)
	assert.Contains(t, w.bodies[1], "State branch refused.")
	assert.Empty(t, MarkerCommit(w.bodies[1]))
	assert.Contains(t, strings.Join(logs, "\n"), "may not be written")

	// The next event goes on from the comment.
	d = subjectStores(m, w, commentsOf(w), &logs)
	st, _, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, sampleState(), st)
}

// A deleted branch, or one reset to an older state, is rebuilt from the comment.
func TestDualRebuildsFromComment(t *testing.T) {
	ctx := t.Context()
	first := sampleState()
	m, w, logs := savedSubject(t, nil, first)
	old := m.files["pr-7.json"]
	oldCommit := m.head
	d := subjectStores(m, w, commentsOf(w), logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	_, err = d.Save(ctx, 7, change(st, withSeq(4)), v)
	require.NoError(t, err)

	// Reset: the file is the older one again (an action's commit, so trusted).
	m.files["pr-7.json"], m.last["pr-7.json"] = old, oldCommit
	d = subjectStores(m, w, commentsOf(w), logs)
	st, _, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, 4, st.Seq)
	assert.Contains(t, (*logs)[len(*logs)-1], "older state (seq 3) than the state comment (seq 4)")

	// Deleted: a new branch, rebuilt from the comment.
	m2 := newMemBranch()
	d = subjectStores(m2, w, commentsOf(w), logs)
	st, v, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, 4, st.Seq)
	assert.Contains(t, (*logs)[len(*logs)-1], "rebuilt from the state comment")
	_, err = d.Save(ctx, 7, change(st, st), v)
	require.NoError(t, err)
	got, err := DecodeFile(m2.files["pr-7.json"], "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, 4, got.Seq)
}

// A file someone else last changed is ignored, reported once, and the run goes on from
// the comment; the next write makes it the action's again.
func TestDualUntrustedFile(t *testing.T) {
	ctx := t.Context()
	for _, tc := range []struct {
		name, author string
		signed       bool
		why          string
	}{
		{"pushed by a person", "mallory", false, "pr-7.json was last changed by mallory"},
		{"web editor", "mallory", true, "pr-7.json was last changed by mallory"},
		{"pushed as the action, unsigned", viewer, false, "GitHub did not sign"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, w, logs := savedSubject(t, nil, sampleState())
			forged := withSeq(99)
			forged.Runs[0].Status = model.RunCompleted
			text, err := EncodeFile(forged)
			require.NoError(t, err)
			m.push(tc.author, tc.signed, []FileChange{{Path: "pr-7.json", Text: text}}, "forged")

			d := subjectStores(m, w, commentsOf(w), logs)
			st, v, err := d.Load(ctx, 7)
			require.NoError(t, err)
			assert.Equal(t, 3, st.Seq, "from the comment")
			require.Len(t, d.NewlyIgnored(), 1)
			assert.Contains(t, d.NewlyIgnored()[0].Why, tc.why)
			assert.Equal(t, m.head, st.Ignored[0].Commit)
			_, err = d.Save(ctx, 7, change(st, st), v)
			require.NoError(t, err)
			assert.Contains(t, w.bodies[1], "the state file on the state branch was ignored")

			// Written again by the action: trusted, and the forged commit is not reported again.
			d = subjectStores(m, w, commentsOf(w), logs)
			st, _, err = d.Load(ctx, 7)
			require.NoError(t, err)
			assert.Empty(t, d.NewlyIgnored())
			assert.Equal(t, 3, st.Seq)
			assert.Len(t, st.Ignored, 1)
		})
	}
}

// A state file the action wrote that does not decode stops the invocation.
func TestDualFileUnreadable(t *testing.T) {
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	m.push(viewer, true, []FileChange{{Path: "pr-7.json", Text: `{"version":2}`}}, "newer")
	var logs []string
	_, _, err := subjectStores(m, w, nil, &logs).Load(t.Context(), 7)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "state version 2")
}

// Finished runs leave the live state for the archive, in the same commit.
func TestDualArchives(t *testing.T) {
	ctx := t.Context()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	var logs []string
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{
		finishedRun("auto-merge", 1, model.RunCompleted, at), finishedRun("auto-merge", 2, model.RunWaiting, at.Add(time.Hour)),
	}}
	d := subjectStores(m, w, nil, &logs)
	old, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	_, err = d.Save(ctx, 7, change(old, st), v)
	require.NoError(t, err)
	require.Contains(t, m.files, "archive/pr-7/auto-merge.7.1.json")
	live, err := DecodeFile(m.files["pr-7.json"], "acme/widgets#7")
	require.NoError(t, err)
	require.Len(t, live.Runs, 1)
	assert.Equal(t, "auto-merge/7/2", live.Runs[0].ID)
	assert.Equal(t, "auto-merge/7/1", live.Past[0].ID)
	assert.Contains(t, m.messages[0], "archived auto-merge/7/1 (completed) to archive/pr-7/auto-merge.7.1.json")
	cst, _, err := Decode(w.bodies[1])
	require.NoError(t, err)
	assert.Len(t, cst.Runs, 1, "the comment holds the live state too")
}

// An index.json someone else changed is deleted; the subject's shard lists its runs.
func TestBranchStoreUntrustedIndex(t *testing.T) {
	ctx := t.Context()
	m, w := newMemBranch(), &fakeWriter{nextID: 1}
	idx, err := EncodeIndex(&Index{Runs: []IndexEntry{{Run: "x/9/1", File: "pr-9.json"}}})
	require.NoError(t, err)
	m.push("mallory", false, []FileChange{{Path: IndexFile, Text: idx}}, "forged")
	var logs []string
	d := subjectStores(m, w, nil, &logs)
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	_, err = d.Save(ctx, 7, change(st, sampleState()), v)
	require.NoError(t, err)
	assert.NotContains(t, m.files, IndexFile)
	got, err := DecodeIndex(m.files[ShardFile("pr-7.json")])
	require.NoError(t, err)
	require.Len(t, got.Runs, 1)
	assert.Equal(t, "pr-7.json", got.Runs[0].File)
	assert.Contains(t, strings.Join(logs, "\n"), "index of open runs is not trusted")
}

func TestTrustFile(t *testing.T) {
	f := &BranchFile{Path: "pr-7.json", Commit: strings.Repeat("a", 40), Author: "github-actions[bot]", Signed: true}
	assert.Empty(t, TrustFile(f, "github-actions"))
	assert.Empty(t, TrustFile(f, "github-actions[bot]"))
	f.Author = ""
	assert.Contains(t, TrustFile(f, "github-actions[bot]"), "a deleted or unknown user")
	f.Author, f.Signed = "github-actions[bot]", false
	assert.NotEmpty(t, TrustFile(f, "github-actions[bot]"))
}

// An index too large for GitHub to give its text is left as it is: rewriting it from
// a part would drop the other subjects' runs.
func TestBranchStoreTruncatedIndexIsKept(t *testing.T) {
	ctx := t.Context()
	m := newMemBranch()
	m.push(viewer, true, []FileChange{{Path: IndexFile, Text: "{\"version\":1,\"runs\":[{\"run\":\"x/9/1\""}}, "big")
	var logs []string
	b := NewBranchStore(m, m.read("pr-7.json"), "pr-7.json", "acme/widgets#7", viewer, func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) })
	b.read.Index.Truncated = true
	st, v, err := b.Load(ctx, 7)
	require.NoError(t, err)
	_, err = b.Save(ctx, 7, change(st, sampleState()), v)
	require.NoError(t, err)
	assert.Equal(t, "{\"version\":1,\"runs\":[{\"run\":\"x/9/1\"", m.files[IndexFile])
	assert.Contains(t, m.files, "pr-7.json")
	assert.Contains(t, strings.Join(logs, "\n"), "too large")
}

// A shard growing toward what GitHub gives of a file is written, with a warning each time.
func TestBranchStoreWarnsOfALargeIndex(t *testing.T) {
	ctx := t.Context()
	m := newMemBranch()
	idx := &Index{Version: indexVersion}
	for i := 0; len(idx.Runs)*160 < IndexWarning; i++ {
		idx.Runs = append(idx.Runs, IndexEntry{Run: fmt.Sprintf("p/%d/1", 100+i), Pipeline: "p", Subject: fmt.Sprintf("acme/widgets#%d", 100+i),
			File: fmt.Sprintf("pr-%d.json", 100+i), Status: model.RunWaiting, Stage: "review"})
	}
	text, err := EncodeIndex(idx)
	require.NoError(t, err)
	require.Greater(t, len(text), IndexWarning)
	m.push(viewer, true, []FileChange{{Path: ShardFile("pr-7.json"), Text: text}}, "big")
	var logs []string
	b := NewBranchStore(m, m.read("pr-7.json"), "pr-7.json", "acme/widgets#7", viewer, func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) })
	st, v, err := b.Load(ctx, 7)
	require.NoError(t, err)
	_, err = b.Save(ctx, 7, change(st, sampleState()), v)
	require.NoError(t, err)
	assert.Contains(t, m.files, "pr-7.json")
	assert.Greater(t, len(m.files[ShardFile("pr-7.json")]), len(text), "the shard is written, with #7's runs")
	assert.Contains(t, strings.Join(logs, "\n"), "half-way to the 512000 bytes")
}

// savedSubject is an empty subject, under keys when given, once saved with first: what
// the next invocation finds.
func savedSubject(t *testing.T, keys *Keys, first *model.State) (*memBranch, *fakeWriter, *[]string) {
	t.Helper()
	m, w, logs, d := emptySubject()
	if keys != nil {
		d.SetKeys(keys)
	}
	saveOnce(t, d, first)
	return m, w, logs
}

// saveOnce is one invocation on d: it loads #7's state and saves next over it.
func saveOnce(t *testing.T, d *Dual, next *model.State) {
	t.Helper()
	st, v, err := d.Load(t.Context(), 7)
	require.NoError(t, err)
	_, err = d.Save(t.Context(), 7, change(st, next), v)
	require.NoError(t, err)
}
