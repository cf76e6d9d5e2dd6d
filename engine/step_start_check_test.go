package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// botMergeConfig merges Dependabot's pull requests into main at once: its trigger's
// author and base branch are the whole of what keeps it to them.
func botMergeConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name: "bot-merge", HasTrigger: true,
		Trigger: lang.Trigger{Event: "pull_request.opened", BaseBranch: "main", Author: "dependabot[bot]"},
		Stages: []*lang.Stage{
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash"}, OnSuccess: lang.TargetComplete},
		},
	}}}
}

func botFacts(author, base string) *model.Facts {
	f := prFacts()
	f.PR.Author, f.PR.BaseRef, f.PR.CreatedAt = author, base, t0
	f.ConfigSince = t0.Add(time.Second) // opened before the pipeline was defined: no late start
	f.People.Permissions = map[string]string{"dev": "write", "alice": "maintain"}
	return f
}

// Every start by hand goes through the trigger's conditions: the author of a pull request
// starts the Dependabot-only pipeline on their own one neither by a workflow_dispatch nor
// by `/pipeline start`, and nothing is merged; on a pull request into another base, not
// either. A maintainer starts it on Dependabot's pull request into main, and it merges.
func TestManualStartObeysTriggerConditions(t *testing.T) {
	cfg := botMergeConfig()
	for _, tc := range []struct{ name, author, base, want string }{
		{"another author", "dev", "main", `author is "dev", not "dependabot[bot]"`},
		{"another base", "dependabot[bot]", "release", `base branch is "release", not "main"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := botFacts(tc.author, tc.base)
			res := Step(cfg, nil, model.Input{Key: "d1", Event: "workflow_dispatch", Actor: "dev", Pipeline: "bot-merge"}, f, t0.Add(time.Minute))
			assert.Empty(t, res.State.Runs)
			assert.Empty(t, mergeEffects(res.Effects), "nothing merged")
			assert.Contains(t, strings.Join(res.Log, "\n"), `pipeline "bot-merge": `+tc.want+"; not started")

			f.PR.Comments = []model.IssueComment{command(2, "dev", "/pipeline start bot-merge")}
			res = Step(cfg, res.State, model.Input{Key: "c2", Event: "issue_comment.created", Actor: "dev", CommentID: 2}, f, t0.Add(2*time.Minute))
			assert.Empty(t, res.State.Runs)
			require.Len(t, res.Effects, 1)
			assert.Equal(t, "chatops/2", res.Effects[0].Key)
			assert.Contains(t, res.Effects[0].Body, "`/pipeline start`: pipeline bot-merge does not run here: ")
			assert.Contains(t, res.Effects[0].Body, "Nothing was started.")
		})
	}

	f := botFacts("dependabot[bot]", "main")
	res := Step(cfg, nil, model.Input{Key: "d2", Event: "workflow_dispatch", Actor: "alice", Pipeline: "bot-merge"}, f, t0.Add(time.Minute))
	require.Len(t, res.State.Runs, 1)
	assert.Equal(t, "started by a workflow_dispatch by alice", res.State.Runs[0].History[0].Why)
	assert.Len(t, mergeEffects(res.Effects), 1)
}

// A start by hand stands in for the trigger's event and the labels it waits for, not for
// its `if`: evaluated on today's facts, with the one who started it as trigger.sender.
func TestManualStartObeysTriggerIf(t *testing.T) {
	cfg := botMergeConfig()
	cfg.Pipelines[0].Trigger = lang.Trigger{Event: "pull_request.labeled", Labels: []string{"deps"}}
	x, err := lang.CompileExpr("trigger.pull_request.user.login == 'dependabot[bot]' && trigger.sender.login != 'mallory'", lang.Pos{File: "p.yaml", Line: 6, Col: 11})
	require.Nil(t, err)
	cfg.Pipelines[0].Trigger.If = x
	f := botFacts("dev", "main")
	f.People.Permissions["mallory"] = "write"
	res := Step(cfg, nil, model.Input{Key: "d1", Event: "workflow_dispatch", Actor: "dev", Pipeline: "bot-merge"}, f, t0.Add(time.Minute))
	assert.Empty(t, res.State.Runs)
	assert.Contains(t, strings.Join(res.Log, "\n"), `its trigger "if" (`+x.Src+`) at p.yaml:6:11 is false; not started`)

	f = botFacts("dependabot[bot]", "main")
	f.People.Permissions["mallory"] = "write"
	res = Step(cfg, nil, model.Input{Key: "d2", Event: "workflow_dispatch", Actor: "mallory", Pipeline: "bot-merge"}, f, t0.Add(time.Minute))
	assert.Empty(t, res.State.Runs, "the dispatcher is the trigger's sender")
	res = Step(cfg, nil, model.Input{Key: "d3", Event: "workflow_dispatch", Actor: "alice", Pipeline: "bot-merge"}, f, t0.Add(time.Minute))
	require.Len(t, res.State.Runs, 1, "no `deps` label: a start by hand needs none")
	assert.Len(t, mergeEffects(res.Effects), 1)
}

// An app may not start a pipeline by a workflow_dispatch (a workflow holding the
// repository's token may dispatch the pipelines workflow), whatever permission it has.
func TestDispatchStartRefusesApps(t *testing.T) {
	cfg := botMergeConfig()
	f := botFacts("dependabot[bot]", "main")
	f.People.Permissions["github-actions[bot]"] = "write"
	res := Step(cfg, nil, model.Input{Key: "d1", Event: "workflow_dispatch", Actor: "github-actions[bot]", Pipeline: "bot-merge"}, f, t0.Add(time.Minute))
	assert.Empty(t, res.State.Runs)
	assert.Empty(t, res.Effects)
	assert.Contains(t, strings.Join(res.Log, "\n"), "workflow_dispatch by github-actions[bot]: pipeline bot-merge not started: it was dispatched by an app")
}

// labelFacts is a pull request carrying label at labeledAt, whose pipelines' definitions
// date from definedAt.
func labelFacts(labeledAt, definedAt time.Time, labels ...string) *model.Facts {
	f := prFacts(labels...)
	f.PR.CreatedAt = t0.Add(-time.Hour)
	for _, l := range labels {
		f.PR.Timeline = append(f.PR.Timeline, model.TimelineEvent{Kind: model.TimelineLabeled, Label: l, At: labeledAt})
	}
	f.ConfigSince = definedAt
	return f
}

// Only the event that satisfies a labeled trigger starts it: the adding of its label, or a
// late start whose label was added strictly after the pipeline's definition. Another label
// added to an old pull request carrying it starts nothing, nor does a label added in the
// very second the definition changed (which came first is not known).
func TestLabeledTriggerStartsOnItsOwnLabelOnly(t *testing.T) {
	cfg := holdConfig()
	defined := t0
	cases := []struct {
		name      string
		labeledAt time.Time
		in        model.Input
		want      string // the first history line of the run started; "" for none
	}{
		{"another label on an old pull request", defined.Add(-time.Minute), model.Input{Key: "k1", Event: "pull_request.labeled", Label: "docs"}, ""},
		{"another label, its own added in the same second", defined, model.Input{Key: "k1", Event: "pull_request.labeled", Label: "docs"}, ""},
		{"another event, its own added in the same second", defined, model.Input{Key: "k1", Event: "pull_request_review.submitted"}, ""},
		{"a labeled event that says no label", defined.Add(-time.Minute), model.Input{Key: "k1", Event: "pull_request.labeled"}, ""},
		{"its own label", defined.Add(-time.Minute), model.Input{Key: "k1", Event: "pull_request.labeled", Label: "Security"}, "started on pull_request.labeled"},
		{"another label, its own added after", defined.Add(time.Second), model.Input{Key: "k1", Event: "pull_request.labeled", Label: "docs"}, "started late on pull_request.labeled"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := labelFacts(tc.labeledAt, defined, "security", "docs")
			res := Step(cfg, nil, tc.in, f, defined.Add(time.Hour))
			if tc.want == "" {
				assert.Empty(t, res.State.Runs)
				return
			}
			require.Len(t, res.State.Runs, 1)
			assert.True(t, strings.HasPrefix(res.State.Runs[0].History[0].Why, tc.want), res.State.Runs[0].History[0].Why)
		})
	}
}

// `/pipeline start` is the comment that starts the run: a trigger's `if` reads it as
// trigger.comment, and its author as trigger.sender.
func TestCommandStartIsTheTriggerComment(t *testing.T) {
	cfg := botMergeConfig()
	cfg.Pipelines[0].Trigger = lang.Trigger{Event: "issue_comment.created"}
	x, err := lang.CompileExpr("trigger.comment.user.login == 'alice' && trigger.sender.login == 'alice' && trigger.comment.id == 3", lang.Pos{File: "p.yaml", Line: 6, Col: 11})
	require.Nil(t, err)
	cfg.Pipelines[0].Trigger.If = x
	f := botFacts("dev", "main")
	f.PR.Comments = []model.IssueComment{command(2, "dev", "/pipeline start bot-merge"), command(3, "alice", "/pipeline start bot-merge")}
	res := Step(cfg, nil, model.Input{Key: "c3", Event: "issue_comment.created", Actor: "alice", CommentID: 3}, f, t0.Add(3*time.Minute))
	require.Len(t, res.State.Runs, 1, "%v", res.Log)
	assert.Equal(t, "comment-3", res.State.Runs[0].TriggerKey)
	assert.Contains(t, strings.Join(res.Log, "\n"), `pipeline "bot-merge": its trigger "if"`, "dev's command is refused")
}
