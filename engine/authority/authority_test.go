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

// whose action counts at a stage: someone with write access today (and of its group when it
// names one), never an author of the change, the action itself nor an agent.
func TestAllowed(t *testing.T) {
	cfg := &lang.Config{Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice"}, Teams: []string{"acme/core"}}}}
	f := &model.Facts{Repo: "acme/widgets", Viewer: "pipeline-bot[bot]",
		PR:          &model.PullRequest{Number: 7, Author: "dev", Contributors: []string{"pair"}},
		Agents:      []string{"coder-bot"},
		TeamMembers: map[string][]string{"acme/core": {"bob"}},
		People: model.People{Permissions: map[string]string{"alice": "write", "bob": "admin", "carol": "write", "dev": "admin",
			"pair": "write", "mallory": "read", "coder-bot": "write", "pipeline-bot[bot]": "admin"}}}
	r := &Rules{Cfg: cfg, Facts: f}
	open, group := &lang.Stage{}, &lang.Stage{From: "maintainers"}
	cases := []struct {
		login     string
		canPush   bool
		open, grp bool
	}{
		{"alice", false, true, true},
		{"bob", false, true, true}, // by the team
		{"carol", false, true, false},
		{"mallory", false, false, false},
		{"mallory", true, true, false}, // a review tells GitHub's word on her permission
		{"dev", false, false, false},   // the author
		{"pair", false, false, false},  // wrote commits of it
		{"coder-bot", false, false, false},
		{"pipeline-bot[bot]", false, false, false},
		{"", true, false, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.open, r.Allowed(nil, open, c.login, c.canPush), "%s without a group", c.login)
		assert.Equal(t, c.grp, r.Allowed(nil, group, c.login, c.canPush), "%s of maintainers", c.login)
	}
	f.TeamMembers = nil // bob left the team: today's membership counts
	assert.False(t, r.Allowed(nil, group, "bob", false))
}
