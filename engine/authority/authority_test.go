package authority

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
)

// Time ties what people did to a head and a base: what was given before the run
// saw the head it has now, or before the last change of base, is stale; a stage with
// dismiss_stale: false keeps it across pushes but never across a change of base.
func TestOutdatedAt(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	f := &model.Facts{Repo: "acme/widgets", PR: &model.PullRequest{Number: 7, HeadSHA: "abc1234def", BaseRef: "main", Author: "dev"}}
	e := &Rules{Facts: f, Now: t0}
	run := &model.Run{Head: f.PR.HeadSHA}
	stage := &lang.Stage{}
	assert.Empty(t, e.OutdatedAt(run, stage, t0), "a run that saw one head only")
	run.HeadSince = t0.Add(time.Hour)
	assert.Contains(t, e.OutdatedAt(run, stage, t0.Add(time.Hour)), "before the head moved", "the same second is not after")
	assert.Empty(t, e.OutdatedAt(run, stage, t0.Add(time.Hour+time.Second)))
	stage.KeepOnPush = true
	assert.Empty(t, e.OutdatedAt(run, stage, t0))
	f.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineBaseChanged, Label: "main", At: t0.Add(2 * time.Hour)}}
	assert.Contains(t, e.OutdatedAt(run, stage, t0.Add(time.Hour+time.Second)), "before the base changed to main")
}

// A gate of an issue's run sees the authors of the run's pull requests, so that none of
// them approves any of them (gates' human_approved reads Facts.Authored).
