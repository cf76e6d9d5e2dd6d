package action

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// The merge the queue took waits in it; each event asks the guard again, and a gate that no
// longer holds takes the pull request out; the queue letting go of the same head fails the
// stage, of another head brings it through the gates again.
func TestMergeQueue(t *testing.T) {
	c, run, step := at(t, "merge")
	p := c.P
	sr := run.Stages["merge"]
	dec := Type{}.Settled(c, run, p.Stage("merge"), model.Outcome{Key: "p#1/merge/1/merge_pr", Queued: true})
	assert.Equal(t, stage.Stay(), dec)
	assert.Equal(t, "abc1234def", sr.Queued)
	assert.Equal(t, model.StageWaiting, sr.Status)

	c.F.PR.InMergeQueue, c.F.PR.QueuePosition = true, 2
	assert.Equal(t, stage.Hold("in the merge queue (position 2): GitHub merges it when the queue's checks pass on its merge group", "GitHub's merge queue"), step())
	assert.Empty(t, c.Emitted, "nothing asked while it waits")

	c.GuardWhy = "gate ci does not hold"
	assert.Equal(t, stage.Hold("gate ci does not hold", "a maintainer (fix the pipeline)"), step())
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, model.Effect{Key: "p#1/merge/1/dequeue_pr", Run: "p#1", Stage: "merge", Kind: model.EffectDequeue, Number: 7}, c.Emitted[0])
	assert.Empty(t, sr.Queued)

	c.GuardWhy, c.Emitted, sr.Queued, c.F.PR.InMergeQueue = "", nil, "abc1234def", false
	assert.Equal(t, stage.Fail("GitHub's merge queue took the pull request out without merging it (a required check failed on its merge group, or someone dequeued it)"), step())

	sr.Queued, c.F.PR.HeadSHA = "abc1234def", "feedface00"
	assert.Equal(t, stage.Stay(), step(), "a new head: the merge is asked again")
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, model.EffectMerge, c.Emitted[0].Kind)
	assert.Equal(t, "feedface00", c.Emitted[0].SHA)
}

// A pull request a person put in the queue is left to it; a run that ends takes out only what
// it queued.
func TestMergeQueueByAPersonAndAbandoned(t *testing.T) {
	c, run, step := at(t, "merge")
	c.F.PR.InMergeQueue = true
	c.GuardWhy = "gate ci does not hold"
	assert.Equal(t, stage.Hold("in the merge queue, put there by a person", "GitHub's merge queue"), step())
	assert.Empty(t, c.Emitted)

	s := c.P.Stage("merge")
	assert.Nil(t, Abandoned(run, s, c.F.PR), "not queued by the run")
	run.Stages["merge"].Status = model.StageActing // it asked for the merge; its outcome was not known
	assert.Equal(t, stage.Back(), func() stage.Decision { c.GuardBack = true; return step() }(), "the queue took the merge it asked for: its own")
	require.Len(t, c.Emitted, 1, "taken out again, as the gates no longer hold")
	assert.Equal(t, model.EffectDequeue, c.Emitted[0].Kind)
	c.GuardBack, c.Emitted = false, nil
	run.Stages["merge"].Queued = "abc1234def"
	eff := Abandoned(run, s, c.F.PR)
	require.NotNil(t, eff)
	assert.Equal(t, model.EffectDequeue, eff.Kind)
	assert.Nil(t, Abandoned(run, s, c.F.PR), "once")
	dec := Type{}.Settled(c, run, s, model.Outcome{Key: eff.Key, Err: "403"})
	assert.Equal(t, stage.Stay(), dec, "a dequeue's outcome is no merge's")
}
