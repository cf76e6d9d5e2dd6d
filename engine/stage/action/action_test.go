package action

import (
	"strings"
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
      - id: merge
        type: action
        action: merge_pr
        config: {method: squash, delete_branch: true}
        on_ci_failure: {goto: fix, max_iterations: 2}
      - id: strict
        type: action
        action: merge_pr
        config: {when_behind: escalate}
        on_conflict: {label: conflict, then: fix}
      - id: hold
        type: action
        action: add_label
        config: {labels: [hold, WIP]}
      - id: unwip
        type: action
        action: remove_label
        config: {label: wip}
      - id: update
        type: action
        action: update_branch
      - id: fix
        type: action
        action: comment
        config: {body: "please fix"}
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// at is a run of p standing at stage id, a Context whose pull request can be merged, and
// the stage.
func at(t *testing.T, id string) (*stagetest.Context, *model.Run, func() stage.Decision) {
	t.Helper()
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, id)
	c := stagetest.New(p, now)
	pr := c.F.PR
	pr.Mergeable, pr.MergeState, pr.HeadRef, pr.HeadRepo = model.Mergeable, "CLEAN", "feature", "o/r"
	return c, run, func() stage.Decision { return Type{}.Step(c, run, s) }
}

func TestMergeAsksForTheHeadTheGatesHoldOnWrittenAhead(t *testing.T) {
	c, run, step := at(t, "merge")
	assert.Equal(t, stage.Stay(), step())
	require.Len(t, c.Emitted, 1)
	eff := c.Emitted[0]
	assert.Equal(t, model.EffectMerge, eff.Kind)
	assert.Equal(t, "p#1/merge/1/merge_pr", eff.Key)
	assert.Equal(t, "abc1234def", eff.SHA, "exactly the head the gates hold on")
	assert.Equal(t, "squash", eff.Method)
	assert.True(t, eff.Delete, "the repository's own head branch is deleted")
	require.Len(t, c.Intended, 1, "a merge cannot be undone: it is written ahead")
	assert.Equal(t, model.StageActing, run.Stages["merge"].Status)
}

func TestTheMergeGuardGoesFirst(t *testing.T) {
	c, run, step := at(t, "merge")
	c.GuardBack, c.GuardWhy = true, "gate ci does not hold"
	c.F.PR.Draft = true
	assert.Equal(t, stage.Back(), step(), "the guard sends the run back before anything else is judged")
	assert.Empty(t, c.Emitted)

	c.GuardBack = false
	assert.Equal(t, stage.Hold("gate ci does not hold", "a maintainer (fix the pipeline)"), step())
	assert.Empty(t, c.Emitted)
	assert.Empty(t, c.Intended)
	assert.Equal(t, model.StageWaiting, run.Stages["merge"].Status)
}

func TestMergeOfAMergedOrClosedPullRequest(t *testing.T) {
	c, _, step := at(t, "merge")
	c.F.PR.State = model.PRMerged
	assert.Equal(t, stage.Leave(model.StageSucceeded, "strict", "the pull request is merged"), step())
	c.F.PR.State = model.PRClosed
	assert.Equal(t, stage.Fail("the pull request was closed without merging"), step())
	assert.Empty(t, c.Emitted)
}

func TestMergeWaitsForGitHubsMergeabilityThenEscalates(t *testing.T) {
	c, _, step := at(t, "merge")
	c.F.PR.Mergeable = model.Unknown
	assert.Equal(t, stage.Hold(model.MergeUnknownWhy, model.MergeUnknownWho), step())
	assert.Equal(t, 1, c.Polled)
	c.PollWhy = "GitHub has not computed it"
	assert.Equal(t, stage.Escalate("GitHub has not computed it"), step())
	assert.Empty(t, c.Emitted)
}

func TestMergeOnCIFailureAsksForTheRuleThenLoops(t *testing.T) {
	c, _, step := at(t, "merge")
	c.F.PR.Checks = []model.CheckResult{{Name: "test", State: model.CheckFailure}}
	d := step()
	assert.Equal(t, stage.MoveLoop, d.Move)
	assert.Equal(t, "fix", d.Rule.Goto)
	assert.Equal(t, model.RuleOnCIFailure, d.RuleKind)
	assert.Contains(t, d.Why, "CI failed on abc1234")
	assert.Equal(t, []string{model.RuleOnCIFailure}, c.RuleKinds)
	assert.Empty(t, c.Emitted)
}

func TestMergeOnConflictLabelsThenLeaves(t *testing.T) {
	c, _, step := at(t, "strict")
	c.F.PR.Mergeable = model.Conflicting
	assert.Equal(t, stage.Leave(model.StageFailed, "fix", "the pull request has conflicts with its base branch"), step())
	assert.Equal(t, []string{model.RuleOnConflict}, c.RuleKinds)
}

func TestAHeadBehindItsBase(t *testing.T) {
	c, run, step := at(t, "strict")
	c.F.PR.MergeState = model.MergeStateBehind
	assert.Equal(t, stage.MoveEscalate, step().Move, "when_behind: escalate")

	c, run, step = at(t, "merge")
	c.F.PR.MergeState = model.MergeStateBehind
	assert.Equal(t, model.UpdateBranchWho, step().Who)
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, model.EffectUpdateBranch, c.Emitted[0].Kind)
	assert.Empty(t, c.Intended, "no merge while the head is brought up to date")

	run.Applied = append(run.Applied, c.Emitted[0].Key)
	c.Emitted = nil
	step()
	assert.Empty(t, c.Emitted, "an update GitHub accepted is not asked for again")

	c, _, step = at(t, "merge")
	c.F.PR.MergeState, c.F.ActionsToken = model.MergeStateBehind, true
	d := step()
	assert.Equal(t, stage.MoveEscalate, d.Move)
	assert.Contains(t, d.Why, "GITHUB_TOKEN")
	assert.Empty(t, c.Emitted, "with GITHUB_TOKEN the update would get no CI")
}

func TestAForksHeadBranchIsKept(t *testing.T) {
	c, _, step := at(t, "merge")
	c.F.PR.HeadRepo, c.F.PR.CrossRepo = "fork/r", true
	step()
	require.Len(t, c.Emitted, 1)
	assert.False(t, c.Emitted[0].Delete)
	assert.Contains(t, c.Log[0], "the fork fork/r")
}

func TestLabelsAskOnlyForWhatIsNotDone(t *testing.T) {
	c, _, step := at(t, "hold")
	c.F.PR.Labels = []string{"hold"}
	assert.Equal(t, stage.Stay(), step())
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, []string{"WIP"}, c.Emitted[0].Labels)
	assert.Empty(t, c.Intended, "adding a label twice shows nothing")

	c, _, step = at(t, "hold")
	c.F.PR.Labels = []string{"Hold", "wip"}
	assert.Equal(t, stage.Leave(model.StageSucceeded, "unwip", "labels present"), step())

	c, _, step = at(t, "unwip")
	c.F.PR.Labels = []string{"WIP"}
	step()
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, []string{"WIP"}, c.Emitted[0].Labels, "removed by its name on the pull request")
}

func TestACommentIsPostedOnce(t *testing.T) {
	c, run, step := at(t, "fix")
	step()
	require.Len(t, c.Intended, 1)
	assert.Equal(t, "please fix", c.Intended[0].Body)
	run.Applied = append(run.Applied, c.Intended[0].Key)
	assert.True(t, step().Leave)
}

func TestAPlannedActionMovesAsItsPlanSays(t *testing.T) {
	c, _, step := at(t, "update")
	eff := model.Effect{Key: "k", Kind: model.EffectUpdateBranch}
	c.Plans = map[string]stage.Plan{"update": {Eff: eff}}
	assert.Equal(t, stage.Stay(), step())
	assert.Equal(t, []model.Effect{eff}, c.Emitted)
	assert.Empty(t, c.Intended)

	c.Plans["update"] = stage.Plan{Eff: eff, WriteAhead: true}
	step()
	assert.Len(t, c.Intended, 1)

	c.Plans["update"] = stage.Plan{Done: "up to date"}
	assert.Equal(t, stage.Leave(model.StageSucceeded, "fix", "up to date"), step())
	c.Plans["update"] = stage.Plan{Err: "no branch"}
	assert.Equal(t, stage.Fail("no branch"), step())
	c.Plans["update"] = stage.Plan{Err: "not supported yet: x"}
	assert.Equal(t, stage.MoveAbort, step().Move)
}

func TestUpdateBranchWithTheActionsTokenEscalatesBeforeAnyPlan(t *testing.T) {
	c, _, step := at(t, "update")
	c.F.ActionsToken = true
	c.Plans = map[string]stage.Plan{"update": {Err: "never asked"}}
	d := step()
	assert.Equal(t, stage.MoveEscalate, d.Move)
	assert.Contains(t, d.Why, `stage "update" would bring #7 up to date`)

	c.Issue = true
	assert.Equal(t, stage.Fail("never asked"), step(), "an issue's run has no branch to update")
}

func TestARetryWaitsWhileOutcomesAreSettled(t *testing.T) {
	c, run, step := at(t, "merge")
	run.Stages["merge"].Status = model.StageRetrying
	c.IsSettling = true
	assert.Equal(t, stage.Stay(), step())
	assert.Empty(t, c.Emitted)
	assert.Equal(t, model.RunWaiting, run.Status)
}

func TestWorkerAndBranch(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	kind, name := Type{}.Worker(p.Stage("merge"))
	assert.Equal(t, [2]string{"action", "merge_pr"}, [2]string{kind, name})
	c, run, _ := at(t, "hold")
	assert.Equal(t, stage.Stay(), Type{}.Branch(c, run, p.Stage("hold")))
	assert.Len(t, c.Emitted, 1)
}

const commitSrc = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: merge
        type: action
        action: merge_pr
        config:
          method: squash
          commit_title: "{{ github.pr.title }} (#{{ github.pr.number }})\nsecond line"
          commit_message: "{{ github.pr.body }}\n\nApproved-by: {{ join(github.pr.approvers, ', ') }}"
`

func commitAt(t *testing.T, vars lang.Env) (*stagetest.Context, stage.Decision, *model.Run) {
	t.Helper()
	p := stagetest.Load(t, commitSrc, "p")
	run, s := stagetest.At(t, p, "merge")
	c := stagetest.New(p, now)
	c.F.PR.Mergeable, c.F.PR.MergeState = model.Mergeable, "CLEAN"
	c.Vars = vars
	return c, Type{}.Step(c, run, s), run
}

func prVars(title, body string) lang.Env {
	return lang.Env{"github": map[string]any{"pr": map[string]any{
		"title": title, "number": 7, "body": body, "approvers": []any{"alice", "bob"},
	}}}
}

func TestMergeCommitText(t *testing.T) {
	c, dec, _ := commitAt(t, prVars("Cache the list", "Read once a minute."))
	assert.Equal(t, stage.Stay(), dec)
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, "Cache the list (#7)", c.Emitted[0].Title, "the title is one line")
	assert.Equal(t, "Read once a minute.\n\nApproved-by: alice, bob", c.Emitted[0].Body)
}

func TestMergeCommitTextIsBounded(t *testing.T) {
	c, _, _ := commitAt(t, prVars(strings.Repeat("é", 300), strings.Repeat("x", 20_000)))
	require.Len(t, c.Emitted, 1)
	title := c.Emitted[0].Title
	assert.LessOrEqual(t, len(title), maxCommitTitle)
	assert.True(t, strings.HasSuffix(title, "é…"), "cut on a character, and marked: %q", title[len(title)-8:])
	assert.Len(t, c.Emitted[0].Body, maxCommitMessage)
}

func TestMergeCommitTextWithAHoleFailsTheStage(t *testing.T) {
	vars := prVars("t", "b")
	delete(vars["github"].(map[string]any)["pr"].(map[string]any), "body")
	c, dec, run := commitAt(t, vars)
	assert.Empty(t, c.Emitted, "no merge with a message full of holes")
	assert.Equal(t, stage.MoveFail, dec.Move)
	assert.Contains(t, run.Stages["merge"].Message, "has no value")
}
