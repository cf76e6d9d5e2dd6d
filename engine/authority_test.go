package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/snapshot"
	"github.com/org/pipeline-action/engine/lang"
)

// In an issue's run the author of the run's pull request is an author everywhere: their
// `/pipeline skip` of the maintainers' stage, written on the issue, is refused. A
// maintainer's skip moves the run on, and the merge guard counts it only while its author
// may still use commands and the head it was given on is the pull request's.
func TestIssueRunPRAuthorCannotSkip(t *testing.T) {
	cfg := issueConfig()
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"bob", "carol"}}}
	cfg.Pipelines[0].Stages[1] = &lang.Stage{ID: "ready", Type: lang.StageHuman, WaitFor: lang.WaitApproval, From: "maintainers", Count: 1, OnComplete: "merge"}
	pr := ownPR(9)
	pr.Author = "mallory"
	f := issueFacts(pr)
	f.People = model.People{Permissions: map[string]string{"mallory": "write", "bob": "write"}}
	res := startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)

	f.Issue.Comments = []model.IssueComment{command(5, "mallory", "/pipeline skip")}
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "issue_comment.created"}, f, t0.Add(10*time.Minute))
	assert.Equal(t, "ready", res.State.Runs[0].Stage, "the pull request's author skips nothing from the issue")
	require.Len(t, res.Effects, 1)
	assert.Contains(t, res.Effects[0].Body, "an author of a pull request cannot move its runs past a stage")

	f.Issue.Comments = append(f.Issue.Comments, command(6, "bob", "/pipeline skip"))
	skipped := Step(cfg, res.State, model.Input{Key: "k6", Event: "issue_comment.created"}, f, t0.Add(10*time.Minute))
	assert.Equal(t, model.StageSkipped, skipped.State.Runs[0].Stages["ready"].Status)
	assert.Equal(t, "bob", skipped.State.Runs[0].Stages["ready"].Skipped.Login)
	require.Len(t, skipped.Effects, 1)
	assert.Equal(t, model.EffectMerge, skipped.Effects[0].Kind, "bob's skip counts for the merge while he may use commands")

	// Suppose the merge had not been asked for at once: bob lost write access, or the head
	// moved, and the guard no longer counts his skip.
	st := snapshot.Clone(skipped.State)
	st.Runs[0].Intents = nil
	f.People.Permissions["bob"] = "read"
	res = Step(cfg, st, model.Input{Key: "k7", Event: "pull_request.labeled"}, f, t0.Add(20*time.Minute))
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
	assert.Contains(t, res.State.Runs[0].History[len(res.State.Runs[0].History)-1].Why, "the /pipeline skip by bob no longer counts")
	f.People.Permissions["bob"] = "write"
	pr.HeadSHA = "cccccccccc"
	res = Step(cfg, st, model.Input{Key: "k8", Event: "pull_request.synchronize"}, f, t0.Add(30*time.Minute))
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
	assert.Contains(t, res.State.Runs[0].History[len(res.State.Runs[0].History)-1].Why, "was given on an older commit")
}

// A `/pipeline` comment someone other than its author edited is not acted on, and the
// state lists it for the status; a comment its author edited is theirs.
func TestDisownedCommandIsNotActedOn(t *testing.T) {
	cfg, f := humanConfig(t, 1), humanFacts()
	res := settleAll(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	edited := command(3, "alice", "/pipeline approve")
	edited.EditedBy = "dev"
	f.PR.Comments = []model.IssueComment{edited}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.edited"}, f, t0.Add(time.Hour))
	assert.Equal(t, "approval", res.State.Runs[0].Stage)
	assert.Empty(t, res.State.Runs[0].Stages["approval"].Approvals)
	assert.Equal(t, []model.DisownedComment{{ID: 3, Author: "alice", Editor: "dev"}}, res.State.Disowned)
	assert.Equal(t, int64(3), res.State.CommandsSeen, "acted on once: not again when its author edits it back")
	assert.True(t, people.Needed(cfg, res.State, f).Empty(), "nothing to read for a disowned comment")

	own := command(4, "alice", "/pipeline approve")
	f.PR.Comments = append(f.PR.Comments, own)
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, "merge", res.State.Runs[0].Stage)
}

func TestGatesSeeTheRunsAuthors(t *testing.T) {
	var seen []string
	cfg := issueConfig()
	cfg.Pipelines[0].Stages[1].Conditions = []lang.Condition{{Check: "who", Eval: checkFunc(func(f *model.Facts) model.GateResult {
		seen = f.RunAuthors
		if f.Authored(f.PR, "mallory") {
			return model.GateResult{Status: model.GatePending, Message: "mallory is an author"}
		}
		return model.GateResult{Status: model.GatePass}
	})}}
	pr := ownPR(9)
	pr.Author = "mallory"
	f := issueFacts(pr)
	res := startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	assert.Equal(t, []string{"mallory"}, seen)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
}
