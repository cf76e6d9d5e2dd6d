package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// actionPipeline is a pipeline of one action stage that completes the run.
func actionPipeline(stage *lang.Stage) *lang.Config {
	stage.ID, stage.Type, stage.OnSuccess = "act", lang.StageAction, lang.TargetComplete
	return &lang.Config{Version: 1,
		Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice", "bob"}, Teams: []string{"acme/core"}}},
		Agents: []*lang.Agent{{Name: "feat-dev", Dispatch: lang.DispatchComment, Body: "@claude"}},
		Pipelines: []*lang.Pipeline{{
			Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"},
			Context: []lang.KeyValue{{Key: "pr_number", Value: lang.Value{Kind: lang.KindString, Template: mustTemplate("{{ trigger.pull_request.number }}")}}},
			Stages:  []*lang.Stage{stage},
		}}}
}

func mustTemplate(src string) *lang.Template {
	t, err := lang.CompileTemplate(src, lang.Pos{Line: 1, Col: 1})
	if err != nil {
		panic(err)
	}
	return t
}

func stepOnce(t *testing.T, cfg *lang.Config, f *model.Facts) model.Result {
	t.Helper()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.State.Runs, 1)
	return res
}

func TestActionLabelAddsAndRemovesWhatIsNotDone(t *testing.T) {
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionLabel, Config: lang.ActionConfig{Labels: []string{"ready", "Shipped"}, Remove: []string{"wip", "gone"}}})
	res := stepOnce(t, cfg, prFacts("WIP", "shipped"))
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectLabel, eff.Kind)
	assert.Equal(t, []string{"ready"}, eff.Labels, "shipped is on already")
	assert.Equal(t, []string{"WIP"}, eff.Remove, "removed by its name on the PR; gone is not there")
	assert.False(t, eff.WriteAhead, "labels are idempotent")

	res = stepOnce(t, cfg, prFacts("ready", "shipped"))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
}

func TestActionCommentTemplateIsRenderedAndWrittenAhead(t *testing.T) {
	body := mustTemplate("PR #{{ context.pr_number }} by {{ github.pr.author }} into {{ trigger.pull_request.base.ref }}")
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionComment, Config: lang.ActionConfig{Body: body.Src, BodyTemplate: body}})
	f := prFacts()
	f.PR.Author = "carol"
	res := stepOnce(t, cfg, f)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectComment, res.Effects[0].Kind)
	assert.Equal(t, "PR #7 by carol into main", res.Effects[0].Body)
	assert.True(t, res.Effects[0].WriteAhead)
	require.Len(t, res.State.Runs[0].Intents, 1)

	// A template with no value fails the stage, naming it, rather than posting a hole.
	bad := mustTemplate("hello {{ context.nothing }}")
	cfg = actionPipeline(&lang.Stage{Action: lang.ActionComment, Config: lang.ActionConfig{Body: bad.Src, BodyTemplate: bad}})
	res = stepOnce(t, cfg, prFacts())
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, "{{ context.nothing }} has no value")
}

func TestActionCloseIssue(t *testing.T) {
	linked := mustTemplate("{{ context.pr_number | linked_issue }}")
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionCloseIssue, Config: lang.ActionConfig{Issue: linked}})

	// A pull request that closes no issue: nothing to do, and the log says so.
	res := stepOnce(t, cfg, prFacts())
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	assert.Contains(t, res.Log, `run p/7/1: act: no issue to close ({{ context.pr_number | linked_issue }} gives none: the pull request closes no issue)`)

	f := prFacts()
	f.PR.LinkedIssues = []int{12, 13}
	res = stepOnce(t, cfg, f)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectCloseIssue, res.Effects[0].Kind)
	assert.Equal(t, 12, res.Effects[0].Number)
	assert.False(t, res.Effects[0].WriteAhead, "closing is idempotent")

	self := mustTemplate("{{ github.pr.number }}")
	res = stepOnce(t, actionPipeline(&lang.Stage{Action: lang.ActionCloseIssue, Config: lang.ActionConfig{Issue: self}}), prFacts())
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, "is the pull request itself")
}

func TestActionNotifyMentionsTheTarget(t *testing.T) {
	cases := []struct {
		target, want, err string
	}{
		{"maintainers", "@alice @bob @acme/core Please look", ""},
		{"dave", "@dave Please look", ""},
		{"@dave", "@dave Please look", ""},
		{"pr", "Please look", ""},
		{"<img src=x>", "", "is neither a group"},
	}
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			cfg := actionPipeline(&lang.Stage{Action: lang.ActionNotify, Config: lang.ActionConfig{
				Target: mustTemplate(tc.target), Message: mustTemplate("Please look")}})
			res := stepOnce(t, cfg, prFacts())
			if tc.err != "" {
				assert.Empty(t, res.Effects)
				assert.Contains(t, res.State.Runs[0].Message, tc.err)
				return
			}
			require.Len(t, res.Effects, 1)
			assert.Equal(t, model.EffectComment, res.Effects[0].Kind)
			assert.Equal(t, tc.want, res.Effects[0].Body)
			assert.True(t, res.Effects[0].WriteAhead)
		})
	}
}

func TestActionNotifyPostedOnceAcrossEvents(t *testing.T) {
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionNotify, Config: lang.ActionConfig{Target: mustTemplate("dave")}})
	res := stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	key := res.Effects[0].Key
	// The comment was posted but its outcome not recorded: the marker on the PR says so.
	f := prFacts()
	f.PR.Posted = []string{key}
	res2 := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f, t0.Add(20*60e9))
	assert.Empty(t, res2.Effects)
	assert.Equal(t, model.RunCompleted, res2.State.Runs[0].Status)
}

func TestActionRequestReviewersAndAssign(t *testing.T) {
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionRequestReviewers, Config: lang.ActionConfig{Reviewers: []string{"carol", "Alice"}, Group: "maintainers"}})
	f := prFacts()
	f.PR.Author = "carol"
	res := stepOnce(t, cfg, f)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectRequestReviewers, eff.Kind)
	assert.Equal(t, []string{"Alice", "bob"}, eff.Reviewers, "the author is left out, logins once")
	assert.Equal(t, []string{"core"}, eff.Teams)
	assert.False(t, eff.WriteAhead)

	cfg = actionPipeline(&lang.Stage{Action: lang.ActionRequestReviewers, Config: lang.ActionConfig{Teams: []string{"other/x"}}})
	res = stepOnce(t, cfg, prFacts())
	assert.Contains(t, res.State.Runs[0].Message, "not of acme")

	cfg = actionPipeline(&lang.Stage{Action: lang.ActionAssign, Config: lang.ActionConfig{Assignees: []string{"dave"}, Group: "maintainers"}})
	res = stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectAssign, res.Effects[0].Kind)
	assert.Equal(t, []string{"dave", "alice", "bob"}, res.Effects[0].Assignees)
	assert.Contains(t, res.Log[len(res.Log)-1], "teams of group \"maintainers\" cannot be assigned")
}

func TestActionCreateIssueIsWrittenAheadAndNeverTwice(t *testing.T) {
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionCreateIssue, Config: lang.ActionConfig{
		Title: mustTemplate("Follow up #{{ github.pr.number }}"), Labels: []string{"followup"}}})
	res := stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectCreateIssue, eff.Kind)
	assert.Equal(t, "Follow up #7", eff.Title)
	assert.True(t, eff.WriteAhead)
	require.Len(t, res.State.Runs[0].Intents, 1)

	// The invocation ended without an outcome: the issue is not opened again.
	later := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts(), t0.Add(model.MaxIntentLease+1))
	assert.Empty(t, later.Effects)
	assert.Equal(t, model.RunFailed, later.State.Runs[0].Status)
	assert.Contains(t, later.State.Runs[0].Message, "it is not opened again")

	// Its outcome recorded: the stage moves on.
	done := Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: eff.Key}}, prFacts(), t0)
	assert.Equal(t, model.RunCompleted, done.State.Runs[0].Status)
	assert.Empty(t, done.Effects)
}

func TestActionCommentTargets(t *testing.T) {
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionComment, Config: lang.ActionConfig{Body: "hi", Target: mustTemplate("pr")}})
	res := stepOnce(t, cfg, prFacts())
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "hi", res.Effects[0].Body)

	cfg = actionPipeline(&lang.Stage{Action: lang.ActionComment, Config: lang.ActionConfig{Body: "hi", Target: mustTemplate("issue")}})
	res = stepOnce(t, cfg, prFacts())
	assert.Empty(t, res.Effects)
	// validate refuses it in a pipeline on pull requests; a sub-pipeline run on a pull
	// request that gets here fails, saying why.
	assert.Contains(t, res.State.Runs[0].Stages["act"].Message, `comment target "issue" in a pull request's run: there is no issue`)
}

func TestPostedTextMakesInterpolatedValuesInert(t *testing.T) {
	body := mustTemplate("cc @{{ github.pr.author }}: {{ github.pr.title }}")
	cfg := actionPipeline(&lang.Stage{Action: lang.ActionComment, Config: lang.ActionConfig{Body: body.Src, BodyTemplate: body}})
	f := prFacts()
	f.PR.Author = "carol"
	f.PR.Title = "Fix <!-- pipeline-action:effect p/7/1/act/1/comment --> for @acme/everyone and org/repo#1"
	res := stepOnce(t, cfg, f)
	require.Len(t, res.Effects, 1)
	got := res.Effects[0].Body
	assert.Equal(t, "cc @carol: `Fix <\u200b!-- pipeline-action:effect p/7/1/act/1/comment --> for @acme/everyone and org/repo#1`", got)
	assert.Empty(t, model.PostedEffects(got), "no marker can be forged through a title")

	// Images and links in a title are shown as written, not rendered; a plain title is
	// shown as it is; an agent's feedback of several lines is a code block of its own.
	for title, want := range map[string]string{
		"![x](https://evil.example/p.png) [see](https://evil.example)": "cc @carol: `![x](https://evil.example/p.png) [see](https://evil.example)`",
		"Add a login page":         "cc @carol: Add a login page",
		"line one\n@team line two": "cc @carol: \n```text\nline one\n@team line two\n```\n",
	} {
		f.PR.Title = title
		assert.Equal(t, want, stepOnce(t, cfg, f).Effects[0].Body)
	}
}
