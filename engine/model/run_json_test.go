package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// A run's records of stages it is done with, that say only how they ended, at which
// attempt and when, are stored as ids in "done"; reading gives the same run back.
func TestRunStoresDoneStagesAsIDs(t *testing.T) {
	run := &Run{ID: "p/7/1", Stage: "c", Stages: map[string]*StageRun{
		"a": {Status: StagePassed, Attempt: 1, EnteredAt: t0},
		"b": {Status: StagePassed, Attempt: 1, EnteredAt: t0},
		"x": {Status: StageSucceeded, Attempt: 2, EnteredAt: t0},
		"f": {Status: StageFailed, Attempt: 1, EnteredAt: t0, Message: "why it failed"},
		"c": {Status: StageWaiting, Attempt: 1, EnteredAt: t0},
	}}
	js, err := json.Marshal(run)
	require.NoError(t, err)
	s := string(js)
	assert.Contains(t, s, `"done":[{"status":"passed","attempt":1,"entered_at":"2026-01-05T09:00:00Z","stages":["a","b"]},{"status":"succeeded","attempt":2,`)
	assert.Contains(t, s, `"f":{"status":"failed"`, "a record that says more stays whole")
	assert.Contains(t, s, `"c":{"status":"waiting"`, "the stage the run waits at stays whole")
	var back Run
	require.NoError(t, json.Unmarshal(js, &back))
	assert.True(t, reflect.DeepEqual(run, &back), "%s", s)

	again, err := json.Marshal(back)
	require.NoError(t, err)
	assert.Equal(t, s, string(again), "a run and its pointer are stored alike")
}

// A stored run is read strictly: no field the action does not know, no stage twice.
func TestRunReadsStrictly(t *testing.T) {
	var r Run
	err := json.Unmarshal([]byte(`{"id":"p/7/1","stages":{"a":{"status":"waiting","attempt":1,"entered_at":"2026-01-05T09:00:00Z"}},`+
		`"done":[{"status":"passed","attempt":1,"entered_at":"2026-01-05T09:00:00Z","stages":["a"]}]}`), &r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `stage "a" is recorded twice`)
	err = json.Unmarshal([]byte(`{"id":"p/7/1","later":1}`), &r)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "unknown field"), err.Error())
}
