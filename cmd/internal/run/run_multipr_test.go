package run

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// TestReportRefReadsOnlyTheStagesRepository: a report of a multi-pr run makes the
// invocation read a pull request of its stage's literal config.repo, and nothing else.
func TestReportRefReadsOnlyTheStagesRepository(t *testing.T) {
	cfg, err := engine.Load(".github/pipelines.yaml", []byte(`version: 1
agents:
  dev: {dispatch: comment, body: "@dev go"}
pipelines:
  xr:
    scope: multi-pr
    trigger: {event: issues.labeled, conditions: {label: x}}
    stages:
      - {id: api, type: agent, agent: dev, action: implement, config: {repo: acme/api}, on_complete: own}
      - {id: own, type: agent, agent: dev, action: implement, on_complete: complete}
`), nil)
	require.NoError(t, err)
	st := &model.State{Runs: []*model.Run{{ID: "xr/4/1", Pipeline: "xr", ConfigOID: cfg.BlobOID}}}
	rep := func(stage string, pr any) *model.Report {
		return &model.Report{Run: "xr/4/1", Stage: stage, Outputs: map[string]any{"pr": pr}}
	}
	ref, ok := reportRef(cfg, st, rep("api", float64(12)))
	assert.True(t, ok)
	assert.Equal(t, model.PRRef{Repo: "acme/api", Number: 12}, ref)
	ref, ok = reportRef(cfg, st, rep("api", "Acme/API#12"))
	assert.True(t, ok)
	assert.Equal(t, model.PRRef{Repo: "acme/api", Number: 12}, ref)
	_, ok = reportRef(cfg, st, rep("api", "evil/repo#1"))
	assert.False(t, ok, "not the stage's repository: not read")
	_, ok = reportRef(cfg, st, rep("own", "evil/repo#1"))
	assert.False(t, ok, "a stage without config.repo reads no other repository")
	_, ok = reportRef(cfg, st, rep("own", float64(3)))
	assert.False(t, ok, "the subject's own pull requests are read by the snapshot")
	_, ok = reportRef(cfg, st, nil)
	assert.False(t, ok)
}

const crossRepoConfig = `version: 1
agents:
  dev-bot: {dispatch: comment, body: "@dev-bot implement"}
pipelines:
  xr:
    scope: multi-pr
    trigger: {event: issues.labeled, conditions: {label: cross-repo}}
    stages:
      - {id: web, type: agent, agent: dev-bot, config: {repo: acme/web}, on_complete: ci}
      - id: ci
        type: gate
        conditions: [{check: ci_status, pr: "{{ context.prs[0] }}"}]
        on_pass: merge-all
      - id: merge-all
        type: parallel
        join: all
        branches:
          - {id: merge-web, type: action, action: merge_pr, config: {pr_number: "{{ context.prs[0] }}"}}
`

// TestEventInAnotherRepositoryMovesTheRun: acme/widgets' issue #4 runs xr, whose pull
// request is acme/web#30; acme/web runs the action too. The association is recorded in
// acme/web#30's own state (with the issue's repository); CI completing on #30 — an event
// of acme/web's workflow — then evaluates acme/widgets#4 there, which merges #30.
func TestEventInAnotherRepositoryMovesTheRun(t *testing.T) {
	h := newHarness(t, crossRepoConfig)
	h.Fake.AddRepo("acme/web", "trunk")
	h.Fake.SetFile("acme/web", "trunk", DefaultConfigPath, "version: 1\npipelines:\n  other:\n    trigger: {event: pull_request.labeled, conditions: {label: never}}\n    stages:\n      - {id: c, type: action, action: add_label, config: {label: x}}\n")
	h.Fake.OpenIssue("acme/widgets", ghfake.IssueOptions{Number: 4, Author: "alice"})
	code, log, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 4, "cross-repo", true))
	require.Equal(t, 0, code, log)
	h.Fake.OpenPR("acme/web", ghfake.PROptions{Number: 30, Author: "dev", Head: "feat-4"})

	env := runtest.Command(h.Fake, h.Fake.BotToken())
	code, out := reportOut(t, env, "", "--run", "xr/4/1", "--stage", "web", "--attempt", "1",
		"--nonce", h.issueState(4).Runs[0].Stages["web"].Nonce, "--verdict", "complete", "--pr", "30")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "pull request acme/web#30 is associated with it")
	run := h.issueState(4).Runs[0]
	assert.Equal(t, "ci", run.Stage)
	assert.Equal(t, []any{"acme/web#30"}, run.Context["prs"])
	text, ok := h.Fake.BranchFiles("acme/web", lang.DefaultStateBranch)[state.SubjectFile(true, 30)]
	require.True(t, ok, "acme/web#30's state records its follower:\n%s", out)
	st, err := state.DecodeFile(text, "acme/web#30")
	require.NoError(t, err)
	assert.Equal(t, []model.Follower{{Issue: 4, Run: "xr/4/1", Repo: "acme/widgets"}}, st.Followers)
	var shown bool
	for _, c := range h.Fake.Comments("acme/web", 30) {
		shown = shown || strings.Contains(c.Body, "Followed by run `xr/4/1` of acme/widgets#4")
	}
	assert.True(t, shown, "#30's state comment says which run follows it")

	// CI passes on #30: acme/web's workflow gets the event, and moves acme/widgets#4's run.
	code, log, _, _ = h.DeliverWith(h.Fake.CompleteCheck("acme/web", 30, "test", "success", ""), func(env map[string]string) {
		env["GITHUB_REPOSITORY"] = "acme/web"
	})
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "#30 is followed by run xr/4/1 of acme/widgets#4; evaluating it there")
	assert.True(t, h.Fake.PR("acme/web", 30).Merged, log)
	assert.Equal(t, model.RunCompleted, h.issueState(4).Runs[0].Status)
}
