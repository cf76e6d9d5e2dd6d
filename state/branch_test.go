package state

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSubjectFileNames(t *testing.T) {
	assert.Equal(t, "pr-7.json", SubjectFile(true, 7))
	assert.Equal(t, "issue-12.json", SubjectFile(false, 12))
	assert.Equal(t, "archive/pr-7/auto-merge.7.1.json", ArchiveFile("pr-7.json", "auto-merge/7/1"))
}

func TestFileRoundTrip(t *testing.T) {
	st := sampleState()
	st.Past = []model.PastRun{{ID: "auto-merge/7/0", Pipeline: "auto-merge", Status: model.RunCompleted, TriggerKey: "run-1", StartedAt: st.Runs[0].StartedAt}}
	text, err := EncodeFile(st)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(text, "}\n"))
	got, err := DecodeFile(text, "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, st, got)
}

func TestDecodeFileIsStrict(t *testing.T) {
	good, err := EncodeFile(sampleState())
	require.NoError(t, err)
	cases := map[string]struct {
		text, subject, want string
	}{
		"unknown field":   {strings.Replace(good, `"seq"`, `"later_field": 1, "seq"`, 1), "acme/widgets#7", "unknown field"},
		"newer version":   {strings.Replace(good, `"version": 1`, `"version": 2`, 1), "acme/widgets#7", "state version 2"},
		"trailing data":   {good + "{}", "acme/widgets#7", "data after"},
		"null":            {"null", "acme/widgets#7", "null state"},
		"null run":        {`{"version":1,"runs":[null]}`, "acme/widgets#7", "run 0 is null"},
		"null stage":      {`{"version":1,"runs":[{"id":"a","subject":"acme/widgets#7","stages":{"x":null}}]}`, "acme/widgets#7", `stage "x" is null`},
		"other subject":   {good, "acme/widgets#8", "not of acme/widgets#8"},
		"run of another":  {`{"version":1,"runs":[{"id":"a","subject":"acme/widgets#8"}]}`, "acme/widgets#7", `run "a" is of acme/widgets#8`},
		"not json":        {"pr-7", "acme/widgets#7", "json"},
		"empty":           {"", "acme/widgets#7", "json"},
		"too large":       {strings.Repeat(" ", maxFileJSON+1), "acme/widgets#7", "larger than"},
		"wrong type":      {`{"version":"1"}`, "acme/widgets#7", "json"},
		"duplicate value": {`{"version":1}{"version":1}`, "acme/widgets#7", "data after"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			st, err := DecodeFile(tc.text, tc.subject)
			require.Error(t, err)
			assert.Nil(t, st)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// A subject with no run yet names no subject.
	st, err := DecodeFile(`{"version":1,"subject":"","seq":0,"runs":null}`, "acme/widgets#7")
	require.NoError(t, err)
	assert.Empty(t, st.Runs)
}

func FuzzDecodeBranch(f *testing.F) {
	good, err := EncodeFile(sampleState())
	require.NoError(f, err)
	idx, err := EncodeIndex((&Index{}).WithSubject("pr-7.json", sampleState()))
	require.NoError(f, err)
	f.Add(good)
	f.Add(idx)
	f.Add("")
	f.Add(`{"version":1,"runs":[{"stages":{"a":null}}]}`)
	f.Add(`{"version":1,"runs":[{"id":"x/7/1","subject":"acme/widgets#7","status":"completed","pipeline":"x"}],"past":[{"id":"x/7/0","pipeline":"x"}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		st, err := DecodeFile(text, "acme/widgets#7")
		if err != nil {
			assert.Nil(t, st)
		} else {
			again, err := EncodeFile(st)
			require.NoError(t, err)
			st2, err := DecodeFile(again, "acme/widgets#7")
			require.NoError(t, err)
			assert.Equal(t, st.Seq, st2.Seq)
			live, _ := Compact(st2)
			_, err = EncodeFile(live)
			require.NoError(t, err)
			Message("pr-7.json", st, st2, Event{Name: "x"}, nil)
		}
		ix, err := DecodeIndex(text)
		if err != nil {
			assert.Nil(t, ix)
			return
		}
		_, err = EncodeIndex(ix)
		require.NoError(t, err)
	})
}

func TestIndexWithSubject(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	idx := &Index{Version: 1, Runs: []IndexEntry{
		{Run: "auto-merge/7/1", File: "pr-7.json", Subject: "acme/widgets#7", Stage: "old"},
		{Run: "auto-merge/9/1", File: "pr-9.json", Subject: "acme/widgets#9", Stage: "ready"},
	}}
	st := sampleState()
	done := *st.Runs[0]
	done.ID, done.Status = "auto-merge/7/0", model.RunCompleted
	st.Runs = append(st.Runs, &done)
	next := idx.WithSubject("pr-7.json", st)
	text, err := EncodeIndex(next)
	require.NoError(t, err)
	got, err := DecodeIndex(text)
	require.NoError(t, err)
	require.Len(t, got.Runs, 2, "the finished run is not listed")
	assert.Equal(t, IndexEntry{Run: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", File: "pr-7.json",
		Status: model.RunWaiting, Stage: "ready", Updated: at}, got.Runs[0])
	assert.Equal(t, "pr-9.json", got.Runs[1].File, "other subjects are kept")
	assert.Equal(t, "old", idx.Runs[0].Stage, "idx is not modified")

	_, err = DecodeIndex(`{"version":1,"runs":[],"extra":1}`)
	assert.Error(t, err)
	_, err = DecodeIndex(`{"version":2,"runs":[]}`)
	assert.Error(t, err)
}

func finishedRun(pipeline string, n int, status model.RunStatus, at time.Time) *model.Run {
	return &model.Run{ID: fmt.Sprintf("%s/7/%d", pipeline, n), Pipeline: pipeline, Subject: "acme/widgets#7", Status: status,
		TriggerKey: fmt.Sprintf("run-%d", n), StartedAt: at, Stages: map[string]*model.StageRun{}}
}

func TestCompact(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{
		finishedRun("a", 1, model.RunCompleted, at),
		finishedRun("a", 2, model.RunCancelled, at.Add(time.Minute)),
		finishedRun("b", 1, model.RunFailed, at),
		finishedRun("a", 3, model.RunWaiting, at.Add(2*time.Minute)),
	}}
	live, archived := Compact(st)
	require.Len(t, archived, 2)
	assert.Equal(t, []string{"a/7/1", "a/7/2"}, []string{archived[0].ID, archived[1].ID})
	var ids []string
	for _, r := range live.Runs {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"b/7/1", "a/7/3"}, ids, "open runs, and the newest run of a pipeline when it is finished")
	require.Len(t, live.Past, 2)
	assert.Equal(t, model.PastRun{ID: "a/7/1", Pipeline: "a", Status: model.RunCompleted, TriggerKey: "run-1", StartedAt: at}, live.Past[0])
	assert.Len(t, st.Runs, 4, "st is not modified")

	again, none := Compact(live)
	assert.Empty(t, none)
	assert.Same(t, live, again)

	// Past is bounded per subject, newest kept.
	big := &model.State{Version: 1}
	for i := 1; i <= MaxPast+5; i++ {
		big.Runs = append(big.Runs, finishedRun("a", i, model.RunCompleted, at.Add(time.Duration(i)*time.Minute)))
	}
	big.Runs = append(big.Runs, finishedRun("b", 1, model.RunCompleted, at))
	live, archived = Compact(big)
	assert.Len(t, archived, MaxPast+4)
	assert.Len(t, live.Runs, 2)
	assert.Len(t, live.Past, MaxPast)
	assert.Equal(t, "a/7/5", live.Past[0].ID)
	assert.Equal(t, fmt.Sprintf("a/7/%d", MaxPast+4), live.Past[MaxPast-1].ID)
}

func TestMessage(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	old := sampleState()
	old.Runs[0].Pipeline = "pr-lifecycle"
	st := sampleState()
	st.Runs[0].Pipeline = "pr-lifecycle"
	r := st.Runs[0]
	r.History = append(r.History, model.Transition{At: at.Add(time.Minute), From: "ready", To: "approval-gate", Why: "x"},
		model.Transition{At: at.Add(time.Minute), From: "approval-gate", To: "auto-merge", Why: "y"})
	r.Stage = "auto-merge"
	ev := Event{Name: "pull_request_review.submitted", Actor: "alice"}
	h, b := Message("pr-7.json", old, st, ev, nil)
	assert.Equal(t, "pr-7 pr-lifecycle: ready → auto-merge (pull_request_review.submitted by alice)", h)
	assert.Empty(t, b)

	// A new run, and a second one: the headline counts, the body lists.
	other := finishedRun("hold", 1, model.RunWaiting, at)
	other.History = []model.Transition{{At: at, To: "approval"}}
	st.Runs = append(st.Runs, other)
	h, b = Message("pr-7.json", old, st, ev, []*model.Run{finishedRun("hold", 0, model.RunCompleted, at)})
	assert.Equal(t, "pr-7 pr-lifecycle: ready → auto-merge; and 1 more (pull_request_review.submitted by alice)", h)
	assert.Equal(t, "pr-lifecycle: ready → auto-merge\nhold: start → approval\narchived hold/7/0 (completed) to archive/pr-7/hold.7.0.json", b)

	// Only gate results changed.
	st = sampleState()
	st.Runs[0].Stages["ready"].Results = nil
	h, _ = Message("pr-7.json", sampleState(), st, Event{Name: "check_run.completed"}, nil)
	assert.Equal(t, "pr-7 auto-merge: at ready (check_run.completed)", h)

	// Nothing in a run changed (the state changed otherwise).
	h, _ = Message("issue-3.json", sampleState(), sampleState(), Event{}, nil)
	assert.Equal(t, "issue-3: state updated (no event)", h)
}

func TestIndexListsNextDeadline(t *testing.T) {
	due := time.Date(2026, 1, 6, 9, 0, 0, 0, time.UTC)
	st := sampleState()
	sr := st.Runs[0].Stages[st.Runs[0].Stage]
	sr.Deadlines = []model.Deadline{{Kind: model.DeadlineReminder, At: due.Add(time.Hour)}, {Kind: model.DeadlineTimeout, At: due}}
	text, err := EncodeIndex((&Index{}).WithSubject("pr-7.json", st))
	require.NoError(t, err)
	assert.Contains(t, text, `"next_deadline": "2026-01-06T09:00:00Z"`)
	got, err := DecodeIndex(text)
	require.NoError(t, err)
	assert.Equal(t, due, got.Runs[0].NextDeadline)

	sr.Deadlines = nil
	text, err = EncodeIndex((&Index{}).WithSubject("pr-7.json", st))
	require.NoError(t, err)
	assert.NotContains(t, text, "next_deadline", "a run that waits for no time has none")
}
