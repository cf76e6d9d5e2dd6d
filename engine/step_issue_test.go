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

// issueConfig is feature-dev without its sub-pipeline: an issue labelled `feature` → an
// agent (a comment dispatch) → a gate on the run's pull request (label "ok" on the PR) →
// merge.
func issueConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "dev", Dispatch: lang.DispatchComment, Body: "@dev implement this"}},
		Pipelines: []*lang.Pipeline{{
			Name:    "feature",
			Scope:   lang.ScopeIssue,
			Trigger: lang.Trigger{Event: "issues.labeled", Labels: []string{"feature"}},
			Stages: []*lang.Stage{
				{ID: "implement", Type: lang.StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "ready"},
				{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash"}, OnSuccess: lang.TargetComplete},
			},
		}}}
}

// issueFacts is issue #4 labelled feature, with the pull requests prs read beside it.
func issueFacts(prs ...*model.PullRequest) *model.Facts {
	f := &model.Facts{Repo: "acme/widgets", DefaultBranch: "main", Issue: &model.Issue{
		Number: 4, Title: "Add a widget", State: model.IssueOpen, Author: "alice", Labels: []string{"feature"}, CreatedAt: t0,
	}, PRs: map[int]*model.PullRequest{}}
	for _, pr := range prs {
		f.PRs[pr.Number] = pr
	}
	return f
}

func ownPR(n int, labels ...string) *model.PullRequest {
	return &model.PullRequest{Number: n, State: model.PROpen, BaseRef: "main", HeadRef: "feat-4", HeadRepo: "acme/widgets",
		HeadSHA: "bbbbbbbbbb", Mergeable: model.Mergeable, Labels: labels}
}

// startIssueRun starts the run on issue #4 and settles its dispatch.
func startIssueRun(t *testing.T, cfg *lang.Config, f *model.Facts) model.Result {
	t.Helper()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	require.Len(t, res.State.Runs, 1)
	run := res.State.Runs[0]
	assert.Equal(t, "feature/4/1", run.ID)
	assert.Equal(t, "acme/widgets#4", run.Subject)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectDispatch, res.Effects[0].Kind)
	assert.Equal(t, 4, res.Effects[0].Number, "the comment dispatch goes on the issue")
	return dispatched(t, cfg, res, f, t0)
}

func TestIssueRunStartsOnIssuesEventsOnly(t *testing.T) {
	cfg := issueConfig()
	startIssueRun(t, cfg, issueFacts())

	// A pull request labelled feature does not start the issue pipeline.
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, prFacts("feature"), t0)
	assert.Empty(t, res.State.Runs)

	// Without the label, nothing starts.
	f := issueFacts()
	f.Issue.Labels = nil
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	assert.Empty(t, res.State.Runs)

	// Without scope: issue, an issues.* trigger runs on issues too (as feature-dev's).
	unscoped := issueConfig()
	unscoped.Pipelines[0].Scope = lang.ScopeSinglePR
	res = Step(unscoped, nil, model.Input{Key: "k1", Event: "issues.labeled"}, issueFacts(), t0)
	require.Len(t, res.State.Runs, 1)
	assert.Equal(t, "feature/4/1", res.State.Runs[0].ID)

	// A single-pr pipeline does not start on an issue.
	res = Step(stepConfig(), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, issueFacts(), t0)
	assert.Empty(t, res.State.Runs)
}

func TestIssueRunWaitsForAPullRequestThenMergesIt(t *testing.T) {
	cfg := issueConfig()
	res := startIssueRun(t, cfg, issueFacts())

	// The agent reports without a pull request: the gate waits, saying so.
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, nil), issueFacts(), t0)
	run := res.State.Runs[0]
	assert.Equal(t, "ready", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)
	require.Len(t, run.Stages["ready"].Results, 1)
	assert.Contains(t, run.Stages["ready"].Results[0].Message, "no pull request yet")
	assert.Empty(t, res.Effects)

	// Another run, where the agent reports pull request #9: associated, the gate reads #9.
	res = startIssueRun(t, cfg, issueFacts())
	pr := ownPR(9)
	f := issueFacts(pr)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	run = res.State.Runs[0]
	assert.Equal(t, 9, model.RunPR(run))
	assert.Equal(t, []int{9}, model.RunPRs(run))
	assert.Equal(t, "ready", run.Stage)
	assert.Equal(t, "needs ok", run.Stages["ready"].Results[0].Message)

	// The issue carrying the label is not the pull request carrying it.
	f.Issue.Labels = append(f.Issue.Labels, "ok")
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "issues.labeled"}, f, t0)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
	assert.Empty(t, res.Effects)

	// #9 labelled ok: the gate passes on #9's head, and #9 is merged at that head.
	pr.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k4", Event: "pull_request.labeled"}, f, t0)
	run = res.State.Runs[0]
	assert.Equal(t, "merge", run.Stage)
	assert.Equal(t, "bbbbbbbbbb", run.VerifiedSHA)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectMerge, eff.Kind)
	assert.Equal(t, 9, eff.Number, "merge_pr merges the run's pull request, not the issue")
	assert.Equal(t, "bbbbbbbbbb", eff.SHA)

	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: eff.Key}}, f, t0)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
}

func TestIssueRunRefusesAFork(t *testing.T) {
	cfg := issueConfig()
	fork := ownPR(9, "ok")
	fork.CrossRepo, fork.HeadRepo = true, "mallory/widgets"
	closed := ownPR(10, "ok")
	closed.State = model.PRClosed
	for _, c := range []struct {
		name    string
		outputs map[string]any
		why     string
	}{
		{"fork", map[string]any{"pr": 9}, "not a branch of acme/widgets"},
		{"closed", map[string]any{"pr": 10}, "#10 is closed"},
		{"unknown", map[string]any{"pr": 11}, "#11 is not a pull request"},
		{"not a number", map[string]any{"pr": "x"}, "not a pull request number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := issueFacts(fork, closed)
			res := startIssueRun(t, cfg, f)
			res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, c.outputs), f, t0)
			run := res.State.Runs[0]
			assert.Equal(t, 0, model.RunPR(run))
			assert.Contains(t, run.Message, c.why)
			assert.Equal(t, "ready", run.Stage)
			assert.Contains(t, run.Stages["ready"].Results[0].Message, "no pull request yet")
			assert.Empty(t, res.Effects, "nothing is merged")
		})
	}
}

func TestIssueRunNeverMergesWithoutAPullRequest(t *testing.T) {
	cfg := issueConfig()
	cfg.Pipelines[0].Stages = cfg.Pipelines[0].Stages[2:] // merge first
	f := issueFacts(ownPR(9, "ok"))
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	run := res.State.Runs[0]
	assert.Empty(t, res.Effects)
	assert.Equal(t, "merge", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Contains(t, run.Stages["merge"].Results[0].Message, "no pull request yet")
}

func TestIssueRunGuardReadsThePullRequest(t *testing.T) {
	cfg := issueConfig()
	pr := ownPR(9, "ok")
	f := issueFacts(pr)
	res := startIssueRun(t, cfg, f)
	pr.Labels = nil
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": "#9"}), f, t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)

	// A forged state at the merge stage: the guard reads #9, where "ok" is missing.
	st := res.State
	st.Runs[0].Stage = "merge"
	st.Runs[0].Stages["merge"] = &model.StageRun{Status: model.StageActing, Attempt: 1, EnteredAt: t0}
	res = Step(cfg, st, model.Input{Key: "k5", Event: "pull_request.synchronize"}, f, t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)

	// #9's head moves after the gate passed: back to the gate.
	pr.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k6", Event: "pull_request.labeled"}, f, t0)
	require.Len(t, res.Effects, 1)
	pr.HeadSHA = "cccccccccc"
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: "Head branch was modified"}}, f, t0)
	assert.Empty(t, res.Effects)
	res = Step(cfg, res.State, model.Input{Key: "k7", Event: "pull_request.synchronize"}, f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, "cccccccccc", run.VerifiedSHA, "the gate passed again on the new head before the merge")
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "cccccccccc", res.Effects[0].SHA)
}

func TestIssueRunEnvAndCommentTargets(t *testing.T) {
	cfg := issueConfig()
	bodyT := agentTemplate(t, "issue {{ github.issue.number }} pr {{ github.pr.number }}")
	cfg.Pipelines[0].Stages = []*lang.Stage{
		{ID: "implement", Type: lang.StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "tell-issue"},
		{ID: "tell-issue", Type: lang.StageAction, Action: lang.ActionComment, OnSuccess: "tell-pr",
			Config: lang.ActionConfig{Target: agentTemplate(t, "issue"), BodyTemplate: bodyT}},
		{ID: "tell-pr", Type: lang.StageAction, Action: lang.ActionComment, OnSuccess: lang.TargetComplete,
			Config: lang.ActionConfig{Target: agentTemplate(t, "pr"), Body: "on the pr"}},
	}
	f := issueFacts(ownPR(9))
	res := startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, 4, res.Effects[0].Number)
	assert.Equal(t, "issue 4 pr 9", res.Effects[0].Body)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key}}, f, t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, 9, res.Effects[0].Number, `target "pr" is the run's pull request`)

	// In a pull request's run there is no issue: validate refuses it, and a run fails on it.
	pcfg := stepConfig()
	pcfg.Pipelines[0].Stages = []*lang.Stage{{ID: "c", Type: lang.StageAction, Action: lang.ActionComment,
		Config: lang.ActionConfig{Target: agentTemplate(t, "issue"), Body: "x"}}}
	res = Step(pcfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Contains(t, res.State.Runs[0].Stages["c"].Message, `comment target "issue" in a pull request's run: there is no issue`)
}

// TestIssueRunHumanStageReadsItsPullRequest: a human stage of an issue's run counts the
// approving reviews of the run's pull request on its head, and /pipeline approve on the
// issue given on that head.
func TestIssueRunHumanStageReadsItsPullRequest(t *testing.T) {
	cfg := issueConfig()
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"bob", "carol"}}}
	cfg.Pipelines[0].Stages[1] = &lang.Stage{ID: "ready", Type: lang.StageHuman, WaitFor: lang.WaitApproval, From: "maintainers", Count: 1, OnComplete: "merge"}
	pr := ownPR(9)
	f := issueFacts(pr)
	res := startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)

	// A review on an older head does not count; one on the head does.
	pr.Reviews = []model.Review{{Author: "bob", State: model.ReviewApproved, CommitSHA: "0000000000", SubmittedAt: t0, CanPush: true}}
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request_review.submitted"}, f, t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)
	pr.Reviews = append(pr.Reviews, model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: pr.HeadSHA, SubmittedAt: t0.Add(time.Minute), CanPush: true})
	res = Step(cfg, res.State, model.Input{Key: "k6", Event: "pull_request_review.submitted"}, f, t0)
	assert.Equal(t, "merge", res.State.Runs[0].Stage)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, 9, res.Effects[0].Number)

	// The people a human stage of an issue's run needs are read from the run's pull request.
	pr.Reviews = []model.Review{{Author: "dave", State: model.ReviewApproved, CommitSHA: pr.HeadSHA}}
	cfg.Groups[0].Teams = []string{"acme/maintainers"}
	st := startIssueRun(t, cfg, f).State
	st = Step(cfg, st, reportOn(st, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0).State
	needs := people.Needed(cfg, st, f)
	assert.Contains(t, needs.Teams, "acme/maintainers")
}

func TestIssueRunContextReadsTheIssue(t *testing.T) {
	cfg := issueConfig()
	cfg.Pipelines[0].Context = []lang.KeyValue{
		{Key: "issue", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ trigger.issue.number }}")}},
		{Key: "title", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ trigger.issue.title }}")}},
		{Key: "pr", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ trigger.pull_request.number }}")}},
	}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, issueFacts(), t0)
	run := res.State.Runs[0]
	assert.Equal(t, 4, model.ContextInt(run.Context["issue"]))
	assert.Equal(t, "Add a widget", run.Context["title"])
	_, has := run.Context["pr"]
	assert.False(t, has, "an issue's trigger has no pull_request: left out, with why in the log")
	assert.Equal(t, 0, model.RunPR(run))
}

// In an issue's run, the author of the run's pull request does not approve their own
// change: neither their review nor their `/pipeline approve` on the issue counts. The
// issue's author does not count either (the subject's author, as in a pull request's run).
func TestIssueRunHumanStageLeavesOutThePullRequestsAuthor(t *testing.T) {
	cfg := issueConfig()
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice", "bob", "dev"}}}
	cfg.Pipelines[0].Stages[1] = &lang.Stage{ID: "ready", Type: lang.StageHuman, WaitFor: lang.WaitApproval, From: "maintainers", Count: 1, OnComplete: "merge"}
	pr := ownPR(9)
	pr.Author = "dev"
	f := issueFacts(pr)
	f.People.Permissions = map[string]string{"alice": "write", "bob": "write", "dev": "write"}
	res := startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)

	pr.Reviews = []model.Review{
		{Author: "dev", State: model.ReviewApproved, CommitSHA: pr.HeadSHA, SubmittedAt: t0},
		{Author: "alice", State: model.ReviewApproved, CommitSHA: pr.HeadSHA, SubmittedAt: t0},
	}
	f.Issue.Comments = []model.IssueComment{{ID: 1, Author: "dev", Body: "/pipeline approve", CreatedAt: t0.Add(time.Minute)}}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(time.Minute))
	run := res.State.Runs[0]
	require.Equal(t, "ready", run.Stage, "neither the PR's author nor the issue's counts")
	assert.Empty(t, run.Stages["ready"].Approvals)
	msg := run.Stages["ready"].Results[0].Message
	assert.Contains(t, msg, "dev does not count here")
	assert.Contains(t, msg, "alice does not count here")
	var reply string
	for _, e := range res.Effects {
		if e.Kind == model.EffectComment {
			reply = e.Body
		}
	}
	assert.Contains(t, reply, "@dev's approval does not count for stage ready")

	pr.Reviews = append(pr.Reviews, model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: pr.HeadSHA, SubmittedAt: t0.Add(2 * time.Minute)})
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request_review.submitted"}, f, t0.Add(2*time.Minute))
	assert.Equal(t, "merge", res.State.Runs[0].Stage)

	// While the run's pull request was not read, its author is not known: no approval counts.
	f = issueFacts(ownPR(9))
	res = startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)
	g := issueFacts()
	g.People.Permissions = map[string]string{"bob": "write"}
	g.Issue.Comments = []model.IssueComment{{ID: 1, Author: "bob", Body: "/pipeline approve", CreatedAt: t0.Add(time.Minute)}}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, g, t0.Add(time.Minute))
	assert.Empty(t, res.State.Runs[0].Stages["ready"].Approvals)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
}

// verdictCheck passes when the run's stage reported verdict; it reads the run alone, so it
// reads no pull request (as an `expr` over `stages` does).
type verdictCheck struct{ stage, verdict string }

func (c verdictCheck) Evaluate(*model.Facts) model.GateResult {
	return model.GateResult{Status: model.GateError, Message: "reads the run"}
}

func (c verdictCheck) EvaluateRun(_ *model.Facts, env lang.Env) model.GateResult {
	stages, _ := env["stages"].(map[string]any)
	st, _ := stages[c.stage].(map[string]any)
	if st["verdict"] == c.verdict {
		return model.GateResult{Status: model.GatePass, Message: c.stage + " " + c.verdict}
	}
	return model.GateResult{Status: model.GateFail, Message: c.stage + " did not " + c.verdict}
}

func (verdictCheck) NeedsPR() bool { return false }

// A gate of an issue's run whose checks read no pull request is evaluated before the run
// has one; a gate with one check that reads a pull request still waits for it.
func TestIssueRunGateWithoutPullRequestChecks(t *testing.T) {
	cfg := issueConfig()
	approved := &lang.Stage{ID: "approved", Type: lang.StageGate, OnPass: "ready",
		Conditions: []lang.Condition{{Check: "expr", Eval: verdictCheck{"implement", lang.VerdictComplete}}}}
	stages := cfg.Pipelines[0].Stages
	stages[0].OnComplete = "approved"
	cfg.Pipelines[0].Stages = []*lang.Stage{stages[0], approved, stages[1], stages[2]}

	res := startIssueRun(t, cfg, issueFacts())
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, nil), issueFacts(), t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.StagePassed, run.Stages["approved"].Status, "the gate reads the run, not a pull request")
	assert.Equal(t, "ready", run.Stage)
	require.Len(t, run.Stages["ready"].Results, 1)
	assert.Contains(t, run.Stages["ready"].Results[0].Message, "no pull request yet", "the next gate reads one")
	assert.Empty(t, res.Effects)

	// With a check that reads a pull request beside it, the gate waits for one.
	approved.Conditions = append(approved.Conditions, lang.Condition{Check: "ok", Eval: labelCheck("ok")})
	res = startIssueRun(t, cfg, issueFacts())
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, nil), issueFacts(), t0)
	run = res.State.Runs[0]
	assert.Equal(t, "approved", run.Stage)
	assert.Contains(t, run.Stages["approved"].Results[0].Message, "no pull request yet")
}
