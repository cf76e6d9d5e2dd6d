package run

import (
	"bytes"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/state"
)

func sweepRunner(now time.Time) (*Runner, *bytes.Buffer) {
	var out bytes.Buffer
	env := func(string) string { return "" }
	r := &Runner{Getenv: env, Out: &out, Now: func() time.Time { return now }}
	r.act = githubactions.New(githubactions.WithGetenv(env), githubactions.WithWriter(&out))
	return r, &out
}

func sweepSnapshot(t *testing.T, author string, signed bool, entries ...state.IndexEntry) *ghapi.SweepSnapshot {
	t.Helper()
	text, err := state.EncodeIndex(&state.Index{Runs: entries})
	require.NoError(t, err)
	return &ghapi.SweepSnapshot{Viewer: "github-actions[bot]", State: state.BranchRead{Name: "pipeline-action/state", Exists: true,
		Index: &state.BranchFile{Path: state.IndexFile, Text: text, Commit: "abcdef0123", Author: author, Signed: signed}}}
}

func TestDueSubjectsOldestFirstAndOnlyThisRepository(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	entry := func(run, subject, file string, at time.Time) state.IndexEntry {
		return state.IndexEntry{Run: run, Pipeline: "p", Subject: subject, File: file, NextDeadline: at}
	}
	snap := sweepSnapshot(t, "github-actions[bot]", true,
		entry("p/7/1", "acme/widgets#7", "pr-7.json", now.Add(-time.Hour)),
		entry("q/7/1", "acme/widgets#7", "pr-7.json", now.Add(-3*time.Hour)), // the same subject: its oldest counts
		entry("p/9/1", "acme/widgets#9", "pr-9.json", now.Add(-2*time.Hour)),
		entry("p/8/1", "acme/widgets#8", "pr-8.json", now.Add(time.Hour)),      // not due
		entry("p/5/1", "acme/widgets#5", "pr-5.json", time.Time{}),             // waits for no time
		entry("p/3/1", "evil/other#3", "pr-3.json", now.Add(-time.Hour)),       // another repository
		entry("p/4/1", "acme/widgets#4", "pr-40.json", now.Add(-time.Hour)),    // a file that is not #4's
		entry("p/6/1", "acme/widgets#6", "issue-6.json", now.Add(-time.Hour)),  // an issue's runs
		entry("p/2/1", "acme/widgets#2", "issue-20.json", now.Add(-time.Hour)), // a file that is not #2's
	)
	r, out := sweepRunner(now)
	due, later, ok := r.dueSubjects(snap, "acme/widgets")
	require.True(t, ok)
	require.Len(t, due, 3, out.String())
	assert.Equal(t, 7, due[0].number)
	assert.Equal(t, now.Add(-3*time.Hour), due[0].at)
	assert.ElementsMatch(t, []string{"p/7/1", "q/7/1"}, due[0].runs)
	assert.Equal(t, 9, due[1].number)
	assert.False(t, due[1].issue)
	assert.Equal(t, 6, due[2].number)
	assert.True(t, due[2].issue, "issue-6.json holds an issue's runs")
	assert.Equal(t, now.Add(time.Hour), later)
	assert.Equal(t, 3, bytes.Count(out.Bytes(), []byte("not a pull request or an issue of acme/widgets; skipped")), out.String())
}

func TestDueSubjectsRefusesAnIndexNotWrittenByTheAction(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	e := state.IndexEntry{Run: "p/7/1", Pipeline: "p", Subject: "acme/widgets#7", File: "pr-7.json", NextDeadline: now.Add(-time.Hour)}
	for name, snap := range map[string]*ghapi.SweepSnapshot{
		"pushed by someone":  sweepSnapshot(t, "mallory", false, e),
		"not signed":         sweepSnapshot(t, "github-actions[bot]", false, e),
		"signed as a person": sweepSnapshot(t, "mallory", true, e),
	} {
		r, out := sweepRunner(now)
		due, _, ok := r.dueSubjects(snap, "acme/widgets")
		assert.True(t, ok, name)
		assert.Empty(t, due, name)
		assert.Contains(t, out.String(), "the index of open runs is not trusted", name)
	}
}

func TestSweepEventFindsTheDefaultBranch(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := dir + "/" + name
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	cases := []struct {
		name          string
		env           map[string]string
		event, branch string
		err           string
	}{
		{"schedule payload without repository: GITHUB_REF_NAME", map[string]string{"GITHUB_EVENT_NAME": "schedule",
			"GITHUB_EVENT_PATH": write("s.json", `{"schedule":"*/15 * * * *"}`), "GITHUB_REF_NAME": "trunk"}, "schedule", "trunk", ""},
		{"workflow_dispatch: the payload's default branch, not the ref it runs on", map[string]string{"GITHUB_EVENT_NAME": "workflow_dispatch",
			"GITHUB_EVENT_PATH": write("d.json", `{"ref":"refs/heads/feat","repository":{"full_name":"acme/widgets","default_branch":"main"}}`),
			"GITHUB_REF_NAME":   "feat"}, "workflow_dispatch", "main", ""},
		{"workflow_dispatch without repository", map[string]string{"GITHUB_EVENT_NAME": "workflow_dispatch",
			"GITHUB_EVENT_PATH": write("e.json", `{}`), "GITHUB_REF_NAME": "feat"}, "", "", "the default branch is unknown"},
	}
	for _, tc := range cases {
		tc.env["GITHUB_REPOSITORY"] = "acme/widgets"
		r := &Runner{Getenv: func(k string) string { return tc.env[k] }}
		ev, err := r.sweepEvent()
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.event, ev.Event, tc.name)
		assert.Equal(t, tc.branch, ev.DefaultBranch, tc.name)
		assert.Equal(t, "acme/widgets", ev.Repo, tc.name)
	}
}

func TestSweepCommandNeedsARepository(t *testing.T) {
	var out, errOut bytes.Buffer
	code := testMain([]string{"sweep"}, nil, &out, &errOut, func(k string) string { return map[string]string{"INPUT_TOKEN": "x"}[k] })
	assert.Equal(t, 2, code)
	assert.Contains(t, out.String(), "GITHUB_REPOSITORY must be set")
}

// Each shard of the index is trusted on its own: one someone pushed is left out, one
// GitHub gave only part of fails the sweep, and the others are swept.
func TestDueSubjectsReadsEachShardOnItsOwn(t *testing.T) {
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	shard := func(n int, author string, signed, truncated bool) *state.BranchFile {
		file := state.SubjectFile(true, n)
		text, err := state.EncodeIndex(&state.Index{Runs: []state.IndexEntry{{Run: fmt.Sprintf("p/%d/1", n), Pipeline: "p",
			Subject: fmt.Sprintf("acme/widgets#%d", n), File: file, NextDeadline: now.Add(-time.Duration(n) * time.Minute)}}})
		require.NoError(t, err)
		return &state.BranchFile{Path: state.ShardFile(file), Text: text, Commit: "abcdef0123", Author: author, Signed: signed, Truncated: truncated}
	}
	snap := &ghapi.SweepSnapshot{Viewer: "github-actions[bot]", State: state.BranchRead{Name: "pipeline-action/state", Exists: true,
		Shards: []*state.BranchFile{shard(7, "github-actions[bot]", true, false), shard(8, "mallory", false, false),
			shard(9, "github-actions[bot]", true, true), shard(10, "github-actions[bot]", true, false)}}}
	r, out := sweepRunner(now)
	due, _, ok := r.dueSubjects(snap, "acme/widgets")
	assert.False(t, ok, "a shard could not be read")
	require.Len(t, due, 2, out.String())
	assert.Equal(t, 10, due[0].number, "oldest deadline first")
	assert.Equal(t, 7, due[1].number)
	assert.Contains(t, out.String(), "the index of open runs is not trusted")
	assert.Contains(t, out.String(), "too large for GitHub to give its text")
}
