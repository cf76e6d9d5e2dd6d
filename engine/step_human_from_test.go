package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func humanFromConfig(t *testing.T, stage *lang.Stage) *lang.Config {
	cfg := humanConfig(t, 1)
	stage.ID, stage.Type, stage.From, stage.Count, stage.OnComplete = "h", lang.StageHuman, "maintainers", 1, lang.TargetComplete
	cfg.Pipelines[0].Stages = []*lang.Stage{stage}
	return cfg
}

// wait_for: label with `from`: the label counts only when a member of the group added it
// last, as the timeline tells.
func TestHumanLabelFrom(t *testing.T) {
	cfg := humanFromConfig(t, &lang.Stage{WaitFor: lang.WaitLabel, WaitLabel: "qa-ok"})
	f := humanFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	step := func(f *model.Facts) model.Result {
		return Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f, t0.Add(time.Hour))
	}
	message := func(r model.Result) string { return r.State.Runs[0].Stages["h"].Results[0].Message }

	cases := []struct {
		name     string
		timeline []model.TimelineEvent
		done     bool
		note     string
	}{
		{"by a user of the group", []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "alice", At: t0}}, true, ""},
		{"by a member of its team", []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "QA-OK", Actor: "bob", At: t0}}, true, ""},
		{"by someone else", []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "mallory", At: t0}}, false,
			"the label QA-OK was added by mallory, who does not count here"},
		{"by the author, who is in the group", []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "dev", At: t0}}, false,
			"added by dev, who does not count here"},
		{"by the action itself", []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "pipeline-bot[bot]", At: t0}}, false,
			"who does not count here"},
		{"re-added by someone else after a member", []model.TimelineEvent{
			{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "alice", At: t0},
			{Kind: model.TimelineUnlabeled, Label: "qa-ok", Actor: "alice", At: t0.Add(time.Minute)},
			{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "mallory", At: t0.Add(2 * time.Minute)},
		}, false, "added by mallory"},
		{"not in the timeline read", nil, false, "who added the label QA-OK is not known"},
		{"no actor", []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", At: t0}}, false, "is not known"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := humanFacts()
			f.PR.Labels = []string{"QA-OK"}
			f.PR.Timeline = tc.timeline
			r := step(f)
			if tc.done {
				assert.Equal(t, model.RunCompleted, r.State.Runs[0].Status)
				return
			}
			assert.Equal(t, model.RunWaiting, r.State.Runs[0].Status)
			assert.Contains(t, message(r), tc.note)
			assert.Contains(t, r.State.Runs[0].Stages["h"].Results[0].Who, "group maintainers")
		})
	}
	// The label gone, a member's earlier adding does not count.
	f = humanFacts()
	f.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "alice", At: t0}}
	assert.Equal(t, model.RunWaiting, step(f).State.Runs[0].Status)
}

// wait_for: dismiss with `from`: the blocking review must be dismissed by a member.
func TestHumanDismissFrom(t *testing.T) {
	cfg := humanFromConfig(t, &lang.Stage{WaitFor: lang.WaitDismiss})
	f := humanFacts()
	f.PR.Reviews = []model.Review{{Author: "carol", State: model.ReviewChangesRequested}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, model.RunWaiting, res.State.Runs[0].Status)

	cases := []struct {
		name     string
		reviews  []model.Review
		timeline []model.TimelineEvent
		done     bool
		note     string
	}{
		{"by a member", []model.Review{{Author: "carol", State: model.ReviewDismissed}},
			[]model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "bob", At: t0}}, true, ""},
		{"by someone else", []model.Review{{Author: "carol", State: model.ReviewDismissed}},
			[]model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "mallory", At: t0}}, false,
			"the review of carol was dismissed by mallory, who does not count here"},
		{"by the author", []model.Review{{Author: "carol", State: model.ReviewDismissed}},
			[]model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "dev", At: t0}}, false, "dismissed by dev"},
		{"another still blocks", []model.Review{{Author: "carol", State: model.ReviewDismissed}, {Author: "erin", State: model.ReviewChangesRequested}},
			[]model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "alice", At: t0}}, false, ""},
		{"who is not known", []model.Review{{Author: "carol", State: model.ReviewDismissed}}, nil, false, "who dismissed the review of carol is not known"},
		{"the latest dismissal counts", []model.Review{{Author: "carol", State: model.ReviewDismissed}}, []model.TimelineEvent{
			{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "alice", At: t0},
			{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "mallory", At: t0.Add(time.Minute)},
		}, false, "dismissed by mallory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := humanFacts()
			f.PR.Reviews, f.PR.Timeline = tc.reviews, tc.timeline
			r := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.dismissed"}, f, t0.Add(time.Hour))
			if tc.done {
				assert.Equal(t, model.RunCompleted, r.State.Runs[0].Status)
				return
			}
			assert.Equal(t, model.RunWaiting, r.State.Runs[0].Status)
			assert.Contains(t, r.State.Runs[0].Stages["h"].Results[0].Message, tc.note)
		})
	}
}

// The teams of the group are read when someone outside its users added the label or
// dismissed the review.
func TestPeopleNeededLabelAndDismissFrom(t *testing.T) {
	cfg := humanFromConfig(t, &lang.Stage{WaitFor: lang.WaitLabel, WaitLabel: "qa-ok"})
	f := humanFacts()
	f.TeamMembers = nil
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.True(t, people.Needed(cfg, res.State, f).Empty())
	f.PR.Labels = []string{"qa-ok"}
	f.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: "alice", At: t0}}
	assert.Equal(t, model.Needs{Permissions: []string{"alice"}}, people.Needed(cfg, res.State, f), "alice is a user of the group; her permission today counts")
	f.PR.Timeline[0].Actor = "bob"
	assert.Equal(t, model.Needs{Teams: []string{"acme/maintainers"}, Permissions: []string{"bob"}}, people.Needed(cfg, res.State, f))

	cfg = humanFromConfig(t, &lang.Stage{WaitFor: lang.WaitDismiss})
	f = humanFacts()
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	f.PR.Reviews = []model.Review{{Author: "carol", State: model.ReviewDismissed}}
	f.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "carol", Actor: "bob", At: t0}}
	assert.Equal(t, model.Needs{Teams: []string{"acme/maintainers"}, Permissions: []string{"bob"}}, people.Needed(cfg, res.State, f))
}
