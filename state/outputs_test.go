package state

import (
	"errors"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// incompressible is n characters gzip cannot shrink much, different for each n.
func incompressible(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	b := make([]byte, n)
	x := uint32(2463534242) ^ uint32(n)*2654435761
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = alphabet[x&63]
	}
	return string(b)
}

// withOutputs is sampleState whose stage "ready" carries outputs.
func withOutputs(outputs map[string]any) *model.State {
	st := sampleState()
	st.Runs[0].Stages["ready"].Outputs = outputs
	return st
}

func outputsFiles(m *memBranch) []string {
	var out []string
	for p := range m.files {
		if strings.HasPrefix(p, "outputs/") {
			out = append(out, p)
		}
	}
	return out
}

// A large output lives in its own file, named by its digest; the state file and the
// comment hold the reference; the next load puts the outputs back; outputs that change
// replace the file, and a small one stays inline.
func TestDualKeepsLargeOutputsInFiles(t *testing.T) {
	ctx := t.Context()
	m, w, logs, d := emptySubject()
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	big := map[string]any{"log": incompressible(16000)}
	next := withOutputs(big)
	_, err = d.Save(ctx, 7, change(st, next), v)
	require.NoError(t, err)
	assert.Equal(t, big, next.Runs[0].Stages["ready"].Outputs, "the caller's state is left as it is")

	files := outputsFiles(m)
	require.Len(t, files, 1)
	assert.True(t, strings.HasPrefix(files[0], "outputs/pr-7/"))
	assert.NotContains(t, m.files["pr-7.json"], big["log"])
	assert.Contains(t, m.files["pr-7.json"], files[0])
	assert.Less(t, len(w.bodies[1]), 8<<10, "the comment holds the reference")
	cst, _, err := Decode(w.bodies[1])
	require.NoError(t, err)
	ref := cst.Runs[0].Stages["ready"].OutputsFile
	require.NotNil(t, ref)
	assert.Equal(t, files[0], ref.Path)
	assert.Equal(t, []string{"log"}, ref.Keys)

	d = subjectStores(m, w, commentsOf(w), logs)
	st, v, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Equal(t, next, st, "the outputs are back, the reference gone")
	assert.Empty(t, d.NewlyIgnored())

	bigger := withOutputs(map[string]any{"log": incompressible(12000), "more": true})
	bigger.Seq = 4
	v, err = d.Save(ctx, 7, change(st, bigger), v)
	require.NoError(t, err)
	now := outputsFiles(m)
	require.Len(t, now, 1, "the old file is deleted")
	assert.NotEqual(t, files, now)

	small := withOutputs(map[string]any{"verdict": "ok"})
	small.Seq = 5
	_, err = d.Save(ctx, 7, change(bigger, small), v)
	require.NoError(t, err, "a second save of the invocation knows what the first wrote")
	assert.Empty(t, outputsFiles(m))
	assert.Contains(t, m.files["pr-7.json"], `"verdict": "ok"`)
}

// An outputs file changed on the branch, or missing (the branch was deleted and the state
// rebuilt from the comment), is not used: the stage goes on without the outputs, the
// status says so once, and the reference and the file are left as they are.
func TestDualOutputsFileSwappedOrMissing(t *testing.T) {
	ctx := t.Context()
	m, w, logs, d := emptySubject()
	st, v, err := d.Load(ctx, 7)
	require.NoError(t, err)
	_, err = d.Save(ctx, 7, change(st, withOutputs(map[string]any{"log": incompressible(4000)})), v)
	require.NoError(t, err)
	path := outputsFiles(m)[0]
	swapped := `{"log": "approve everything"}` + "\n"
	m.files[path] = swapped

	d = subjectStores(m, w, commentsOf(w), logs)
	st, v, err = d.Load(ctx, 7)
	require.NoError(t, err)
	sr := st.Runs[0].Stages["ready"]
	assert.Nil(t, sr.Outputs)
	require.NotNil(t, sr.OutputsFile, "the reference is kept")
	require.Len(t, d.NewlyIgnored(), 1)
	assert.Equal(t, path, d.NewlyIgnored()[0].File)
	assert.Contains(t, d.NewlyIgnored()[0].Why, "whose content is not the one the state's digest names")
	next := *st
	next.Seq++
	_, err = d.Save(ctx, 7, change(st, &next), v)
	require.NoError(t, err)
	assert.Equal(t, swapped, m.files[path], "left as it is")
	assert.Contains(t, m.files["pr-7.json"], path)
	assert.Contains(t, Human(w.bodies[1]), "the outputs of stage ready of run auto-merge/7/1 are in "+path)

	// The branch deleted: rebuilt from the comment, without the file.
	m2 := newMemBranch()
	d = subjectStores(m2, w, commentsOf(w), logs)
	st, _, err = d.Load(ctx, 7)
	require.NoError(t, err)
	assert.Nil(t, st.Runs[0].Stages["ready"].Outputs)
	assert.Empty(t, d.NewlyIgnored(), "reported once: the state remembers it")
	require.NotEmpty(t, st.Ignored)
}

func TestBudget(t *testing.T) {
	st := withOutputs(map[string]any{"log": incompressible(16000)})
	for i := 0; i < 3; i++ {
		id := string(rune('a' + i))
		st.Runs[0].Stages[id] = &model.StageRun{Status: model.StageSucceeded, Attempt: 1, Outputs: map[string]any{"log": incompressible(16000 + i)}}
	}
	require.NoError(t, Budget(st, "pr-7.json", false), "in files, four outputs fit")
	err := Budget(st, "pr-7.json", true)
	var over *BudgetError
	require.True(t, errors.As(err, &over), "%v", err)
	assert.Equal(t, StateBudget, over.Limit)
	assert.Greater(t, over.Size, StateBudget)
	assert.Contains(t, err.Error(), "the state of acme/widgets#7 would take")

	for i := 0; i < 40; i++ {
		st.Runs[0].Stages[strings.Repeat("x", i+1)] = &model.StageRun{Status: model.StageSucceeded, Attempt: 1,
			Outputs: map[string]any{"log": incompressible(16000 - i)}}
	}
	err = Budget(st, "pr-7.json", false)
	require.True(t, errors.As(err, &over), "%v", err)
	assert.Equal(t, OutputsBudget, over.Limit)
	assert.Contains(t, err.Error(), "its outputs files on the state branch")
}

func TestSummaryKeysAreBounded(t *testing.T) {
	outputs := map[string]any{strings.Repeat("k", 100): 1}
	for i := 0; i < 20; i++ {
		outputs[string(rune('a'+i))] = i
	}
	keys := summaryKeys(outputs)
	assert.Len(t, keys, maxSummaryKeys+1)
	assert.Equal(t, "and 5 more", keys[maxSummaryKeys])
	for _, k := range keys {
		assert.LessOrEqual(t, len(k), maxSummaryKey+len("…"))
	}
}

// Every file the action writes on the state branch stays well below what GitHub's GraphQL
// gives of a file, so none is ever read truncated: a subject's state file is its marker's
// payload (StateBudget), its outputs files together at most OutputsBudget.
func TestBudgetsAreWellBelowGitHubsBlobLimit(t *testing.T) {
	assert.LessOrEqual(t, OutputsBudget, GitHubBlobText/2+GitHubBlobText/50)
	assert.LessOrEqual(t, StateBudget, GitHubBlobText/10)
}
