package delay

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: wait
        type: delay
        duration: 1h
        poll: {interval: 20m, condition: "context.ready == true"}
      - id: after
        type: gate
        conditions: [{check: ci_status}]
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

func TestArmsItsEndAndFirstPoll(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, "wait")
	sr := run.Stages["wait"]
	Type{}.Arm(s, sr, now)
	assert.Equal(t, []model.Deadline{{Kind: model.DeadlineDelay, At: now.Add(time.Hour)}, {Kind: model.DeadlinePoll, At: now.Add(20 * time.Minute)}}, sr.Deadlines)
	d := Type{}.Step(stagetest.New(p, now), run, s)
	assert.Equal(t, stage.Stay(), d)
	assert.Equal(t, model.RunWaiting, run.Status)
}

func TestEndsAtItsEnd(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, "wait")
	d, handled := Type{}.Deadline(stagetest.New(p, now), run, s, model.Deadline{Kind: model.DeadlineDelay, At: now})
	require.True(t, handled)
	assert.Equal(t, stage.Leave(model.StagePassed, "after", "waited 1h"), d)
	_, handled = Type{}.Deadline(stagetest.New(p, now), run, s, model.Deadline{Kind: model.DeadlineTimeout})
	assert.False(t, handled, "a timeout is the kernel's")
}

func TestPollEndsEarlyOrArmsTheNext(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, "wait")
	sr := run.Stages["wait"]
	Type{}.Arm(s, sr, now)
	c := stagetest.New(p, now.Add(20*time.Minute))
	c.Vars = lang.Env{"context": map[string]any{"ready": false}}
	d, _ := Type{}.Deadline(c, run, s, sr.Deadlines[1])
	assert.False(t, d.Leave)
	assert.Equal(t, model.Deadline{Kind: model.DeadlinePoll, At: now.Add(40 * time.Minute), N: 1}, sr.Deadlines[2], "one interval on, before the end")

	c.Vars = lang.Env{"context": map[string]any{"ready": true}}
	d, _ = Type{}.Deadline(c, run, s, sr.Deadlines[2])
	assert.Equal(t, stage.Leave(model.StagePassed, "after", "the poll condition holds; the rest of the delay is skipped"), d)
}
