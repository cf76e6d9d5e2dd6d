package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// prLabel is a check reading the pull request its `pr` names (a PRCheck): it passes when
// that pull request carries label.
type prLabel struct {
	label string
	pr    *lang.Template
}

func (c prLabel) PR() *lang.Template { return c.pr }
func (c prLabel) Evaluate(f *model.Facts) model.GateResult {
	if f.PR.HasLabel(c.label) {
		return model.GateResult{Status: model.GatePass, Message: "has " + c.label + " in " + f.Repo}
	}
	return model.GateResult{Status: model.GatePending, Message: "needs " + c.label + " in " + f.Repo}
}

// multiConfig is cross-repo-feature with a gate in place of its reviews: issue #4 of
// acme/api labelled cross-repo → an agent opens a pull request in acme/api, another in
// acme/web → a gate wants label ok on all of them → both are merged, or neither.
func multiConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "dev", Dispatch: lang.DispatchComment, Body: "@dev implement this"}},
		Pipelines: []*lang.Pipeline{{
			Name:    "xr",
			Scope:   lang.ScopeMultiPR,
			Trigger: lang.Trigger{Event: "issues.labeled", Labels: []string{"cross-repo"}},
			Stages: []*lang.Stage{
				{ID: "api", Type: lang.StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "web",
					Values: []lang.KeyValue{{Key: "repo", Value: lang.Value{Kind: lang.KindString, Scalar: "acme/api"}}}},
				{ID: "web", Type: lang.StageAgent, Agent: "dev", AgentAction: "implement", OnComplete: "ready",
					Values: []lang.KeyValue{{Key: "repo", Value: lang.Value{Kind: lang.KindString, Scalar: "acme/web"}}}},
				{ID: "ready", Type: lang.StageGate, OnPass: "merge-all",
					Conditions: []lang.Condition{{Check: "ok", Eval: prLabel{label: "ok", pr: mustTemplate("all")}}}},
				{ID: "merge-all", Type: lang.StageParallel, Join: lang.JoinAll, OnComplete: lang.TargetComplete, Branches: []*lang.Stage{
					{ID: "merge-api", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash", PR: mustTemplate("{{ context.prs[0] }}")}},
					{ID: "merge-web", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash", PR: mustTemplate("{{ context.prs[1] }}")}},
				}},
			},
		}}}
}

// multiFacts is issue #4 of acme/api labelled cross-repo, with api's pull requests prs and
// acme/web's #30 (web) read beside it.
func multiFacts(web *model.PullRequest, prs ...*model.PullRequest) *model.Facts {
	f := &model.Facts{Repo: "acme/api", DefaultBranch: "main", Issue: &model.Issue{
		Number: 4, Title: "Cross-repo feature", State: model.IssueOpen, Author: "alice", Labels: []string{"cross-repo"}, CreatedAt: t0,
	}, PRs: map[int]*model.PullRequest{}, Others: map[string]*model.PullRequest{}}
	for _, pr := range prs {
		f.PRs[pr.Number] = pr
	}
	if web != nil {
		f.Others["acme/web#30"] = web
	}
	return f
}

func apiPR() *model.PullRequest {
	return &model.PullRequest{Number: 12, State: model.PROpen, BaseRef: "main", HeadRef: "feat/issue-4", HeadRepo: "acme/api",
		HeadSHA: "aaaaaaaaaa", Mergeable: model.Mergeable}
}

func webPR() *model.PullRequest {
	return &model.PullRequest{Number: 30, State: model.PROpen, BaseRef: "main", HeadRef: "feat/issue-4", HeadRepo: "acme/web",
		HeadSHA: "cccccccccc", Mergeable: model.Mergeable}
}

// startMulti runs xr up to its gate: both agents report their pull requests.
func startMulti(t *testing.T, cfg *lang.Config, f *model.Facts) model.Result {
	t.Helper()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	require.Len(t, res.State.Runs, 1)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, 4, res.Effects[0].Number, "the dispatch goes on the issue")
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": 12}), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "web", 1, lang.VerdictComplete, map[string]any{"pr": 30}), f, t0)
	run := res.State.Runs[0]
	require.Equal(t, "ready", run.Stage, run.Message)
	return res
}

func TestMultiPRRunAssociatesPullRequestsOfEachStagesRepository(t *testing.T) {
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	run := res.State.Runs[0]
	assert.Equal(t, []any{"acme/api#12", "acme/web#30"}, run.Context["prs"], "in the order associated, named owner/name#N")
	assert.Equal(t, "acme/api#12", run.Context["pr_number"])
	assert.Equal(t, []model.PRRef{{Repo: "acme/api", Number: 12}, {Repo: "acme/web", Number: 30}}, model.RunPRRefs(run, "acme/api"))
	// The gate reads every pull request: neither carries ok.
	require.Len(t, run.Stages["ready"].Results, 1)
	msg := run.Stages["ready"].Results[0].Message
	assert.Contains(t, msg, "acme/api#12: needs ok in acme/api")
	assert.Contains(t, msg, "acme/web#30: needs ok in acme/web")

	// One of them carrying ok is not enough for `pr: all`.
	api.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, multiFacts(web, api), t0)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
	assert.Empty(t, res.Effects)
}

func TestMultiPRRunRefusesWhatIsNotItsStagesPullRequest(t *testing.T) {
	cfg := multiConfig()
	fork := webPR()
	fork.CrossRepo, fork.HeadRepo = true, "mallory/web"
	f := multiFacts(fork, apiPR())
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	// api's stage names a pull request of another repository than its config.repo.
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": "acme/web#30"}), f, t0)
	run := res.State.Runs[0]
	assert.Nil(t, run.Context["prs"])
	assert.Contains(t, run.Message, `stage "api" opens its pull request in acme/api, not acme/web`)

	res = startMulti(t, cfg, multiFacts(nil, apiPR()))
	run = res.State.Runs[0]
	assert.Equal(t, []any{"acme/api#12"}, run.Context["prs"], "#30 of acme/web was not read: not associated")
	assert.Contains(t, run.Message, "acme/web#30 is not a pull request (or it was not read)")

	res = startMulti(t, cfg, multiFacts(fork, apiPR()))
	run = res.State.Runs[0]
	assert.Equal(t, []any{"acme/api#12"}, run.Context["prs"])
	assert.Contains(t, run.Message, "the head branch of acme/web#30 is not a branch of acme/web")
}

func TestMultiPRRunMergesBothInTheirRepositories(t *testing.T) {
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	f := multiFacts(web, api)
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, "merge-all", run.Stage)
	require.Len(t, res.Effects, 2, run.Message)
	byStage := map[string]model.Effect{}
	for _, e := range res.Effects {
		assert.Equal(t, model.EffectMerge, e.Kind)
		assert.True(t, e.WriteAhead)
		byStage[e.Stage] = e
	}
	assert.Equal(t, 12, byStage["merge-api"].Number)
	assert.Equal(t, "", byStage["merge-api"].Repo, "the subject's repository")
	assert.Equal(t, "aaaaaaaaaa", byStage["merge-api"].SHA)
	assert.Equal(t, 30, byStage["merge-web"].Number)
	assert.Equal(t, "acme/web", byStage["merge-web"].Repo)
	assert.Equal(t, "cccccccccc", byStage["merge-web"].SHA)
	assert.Equal(t, "squash", byStage["merge-web"].Method)

	// Both merges went in: the run completes.
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: byStage["merge-api"].Key}, {Key: byStage["merge-web"].Key}}, f, t0)
	api.State, web.State = model.PRMerged, model.PRMerged
	res = Step(cfg, res.State, model.Input{Key: "k6", Event: "pull_request.closed"}, multiFacts(web, api), t0)
	run = res.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status, run.Message)
}

func TestMultiPRRunMergesNoneWhenOneCannotBeMerged(t *testing.T) {
	for _, tc := range []struct {
		name string
		web  func(*model.PullRequest)
		want string
	}{
		{"conflict", func(p *model.PullRequest) { p.Mergeable = model.Conflicting }, "acme/web#30 (branch merge-web): it has conflicts with its base branch"},
		{"draft", func(p *model.PullRequest) { p.Draft = true }, "acme/web#30 (branch merge-web): it is a draft"},
		{"closed", func(p *model.PullRequest) { p.State = model.PRClosed }, "acme/web#30 (branch merge-web): it was closed without merging"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := multiConfig()
			api, web := apiPR(), webPR()
			res := startMulti(t, cfg, multiFacts(web, api))
			api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
			tc.web(web)
			res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, multiFacts(web, api), t0)
			run := res.State.Runs[0]
			for _, e := range res.Effects {
				assert.NotEqual(t, model.EffectMerge, e.Kind, "nothing is merged")
			}
			assert.Equal(t, model.RunEscalated, run.Status)
			assert.Contains(t, run.Message, `stage "merge-all" merges all of its pull requests or none; none is merged: `+tc.want)
			assert.NotContains(t, run.Message, "acme/api#12 (branch", "the mergeable one is not named as blocked")
		})
	}
}

func TestMultiPRRunGuardHoldsForEachMerge(t *testing.T) {
	// web lost its label after the gate passed (the state says passed): the guard, on web's
	// facts, stops the merge-all before either merge.
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, multiFacts(web, api), t0)
	require.Len(t, res.Effects, 2)
	// The merges were not performed (their intents' invocation ended); web loses ok.
	st := res.State
	st.Runs[0].Intents = nil
	for _, id := range []string{"merge-api", "merge-web"} {
		st.Runs[0].Stages[id].Status = model.StageWaiting
	}
	web.Labels = nil
	res = Step(cfg, st, model.Input{Key: "k6", Event: "pull_request.unlabeled"}, multiFacts(web, api), t0)
	for _, e := range res.Effects {
		assert.NotEqual(t, model.EffectMerge, e.Kind)
	}
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, "none is merged")
	assert.Contains(t, run.Message, `acme/web#30 (branch merge-web): the merge guard does not hold: gate "ready" no longer holds`)
}

func TestMultiPRRunSaysWhichIsMergedWhenGitHubRefusesTheSecond(t *testing.T) {
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	f := multiFacts(web, api)
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, f, t0)
	require.Len(t, res.Effects, 2)
	var outs []model.Outcome
	for _, e := range res.Effects {
		o := model.Outcome{Key: e.Key}
		if e.Stage == "merge-web" {
			o.Err, o.Permanent = "Base branch was modified. Review and try the merge again.", true
		}
		outs = append(outs, o)
	}
	api.State = model.PRMerged
	res = Settle(cfg, res.State, model.Input{}, outs, multiFacts(web, api), t0)
	// The outcomes are recorded; the next invocation decides.
	res = Step(cfg, res.State, model.Input{Key: "k6", Event: "pull_request.closed"}, multiFacts(web, api), t0)
	run := res.State.Runs[0]
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunEscalated, run.Status, run.Message)
	assert.Contains(t, run.Message, "merged acme/api#12 (branch merge-api); not merged acme/web#30 (branch merge-web)")
	assert.Contains(t, run.Message, "Base branch was modified")
}

func TestMultiPRRunWaitsForAMergeInFlightBeforeDeciding(t *testing.T) {
	// web's merge was refused for good while api's is still in flight: nothing is said
	// about api until its outcome is known.
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, multiFacts(web, api), t0)
	require.Len(t, res.Effects, 2)
	var webKey string
	for _, e := range res.Effects {
		if e.Stage == "merge-web" {
			webKey = e.Key
		}
	}
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: webKey, Err: "Pull Request is not mergeable", Permanent: true}}, multiFacts(web, api), t0)
	res = Step(cfg, res.State, model.Input{Key: "k6", Event: "check_run.completed"}, multiFacts(web, api), t0)
	run := res.State.Runs[0]
	assert.Equal(t, "merge-all", run.Stage)
	assert.NotEqual(t, model.RunEscalated, run.Status, run.Message)
	assert.Equal(t, model.StageActing, run.Stages["merge-api"].Status)
	assert.Empty(t, res.Effects)
}

func TestMultiPRMergeNamesOnlyTheRunsPullRequests(t *testing.T) {
	// A pr_number that renders a pull request the run does not have is not merged.
	cfg := multiConfig()
	cfg.Pipelines[0].Stages[3].Branches[1].Config.PR = mustTemplate("acme/web#31")
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	f := multiFacts(web, api)
	f.Others["acme/web#31"] = &model.PullRequest{Number: 31, State: model.PROpen, HeadRepo: "acme/web", HeadSHA: "dd", Mergeable: model.Mergeable, Labels: []string{"ok"}}
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, f, t0)
	assert.Empty(t, res.Effects)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, "acme/web#31 is not a pull request of the run (context.prs); it is not merged")
}

func TestParsePRRef(t *testing.T) {
	for in, want := range map[any]model.PRRef{
		12: {Number: 12}, float64(7): {Number: 7}, "#9": {Number: 9}, " 3 ": {Number: 3},
		"acme/web#30": {Repo: "acme/web", Number: 30}, "Acme/Web.js#1": {Repo: "Acme/Web.js", Number: 1},
	} {
		got, ok := model.ParsePRRef(in)
		assert.True(t, ok, "%v", in)
		assert.Equal(t, want, got, "%v", in)
	}
	for _, bad := range []any{0, -1, "", "#", "acme#3", "acme/web#x", "a/b/c#1", "acme/we b#1", "../x#1", nil, 1.5} {
		_, ok := model.ParsePRRef(bad)
		assert.False(t, ok, "%v", bad)
	}
	assert.Equal(t, "acme/web#30", model.PRRef{Repo: "Acme/Web", Number: 30}.Key())
}

func TestMultiPRRunWaitingOnAnotherRepositoryIsSweptAgain(t *testing.T) {
	// Events on acme/web#30 do not reach acme/api's workflow: a run waiting on it carries a
	// deadline the sweep comes back for, and reads it then.
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	run := res.State.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status)
	require.Len(t, run.Stages["ready"].Deadlines, 1)
	d := run.Stages["ready"].Deadlines[0]
	assert.Equal(t, model.DeadlineFollow, d.Kind)
	assert.Equal(t, t0.Add(model.FollowInterval), d.At)

	// Another event before then: no second deadline.
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "issue_comment.created"}, multiFacts(web, api), t0.Add(time.Minute))
	assert.Len(t, res.State.Runs[0].Stages["ready"].Deadlines, 1)

	// The sweep, once it is due: both now carry ok; the run moves on and merges.
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "schedule"}, multiFacts(web, api), t0.Add(model.FollowInterval))
	run = res.State.Runs[0]
	assert.Equal(t, "merge-all", run.Stage)
	assert.Len(t, res.Effects, 2)

	// A run whose pull requests are all in its own repository needs none (their events reach it).
	cfg = multiConfig()
	cfg.Pipelines[0].Stages[1].Values = nil
	web2 := &model.PullRequest{Number: 30, State: model.PROpen, HeadRepo: "acme/api", HeadSHA: "ee", Mergeable: model.Mergeable}
	res = startMulti(t, cfg, multiFacts(nil, apiPR(), web2))
	assert.Equal(t, []any{"acme/api#12", "acme/api#30"}, res.State.Runs[0].Context["prs"])
	assert.Empty(t, res.State.Runs[0].Stages["ready"].Deadlines)
}

func TestMultiPRRunReadsOnlyWhatItsConfigNames(t *testing.T) {
	// A stage without config.repo takes pull requests of the subject's repository only.
	cfg := multiConfig()
	cfg.Pipelines[0].Stages[0].Values = nil
	f := multiFacts(webPR(), apiPR())
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": "acme/web#30"}), f, t0)
	run := res.State.Runs[0]
	assert.Nil(t, run.Context["prs"])
	assert.Contains(t, run.Message, `stage "api" opens its pull request in acme/api, not acme/web`)

	// A templated config.repo is refused: what the issue says must not choose the repository.
	cfg = multiConfig()
	cfg.Pipelines[0].Stages[0].Values = []lang.KeyValue{{Key: "repo", Value: lang.Value{Kind: lang.KindString, Scalar: "{{ trigger.issue.title }}", Template: mustTemplate("{{ trigger.issue.title }}")}}}
	f = multiFacts(webPR(), apiPR())
	f.Issue.Title = "acme/api"
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": 12}), f, t0)
	run = res.State.Runs[0]
	assert.Nil(t, run.Context["prs"])
	assert.Contains(t, run.Message, `config.repo of stage "api" is a template`)

	// A gate's pr that renders a pull request the run does not have fails.
	cfg = multiConfig()
	cfg.Pipelines[0].Stages[2].Conditions[0].Eval = prLabel{label: "ok", pr: mustTemplate("acme/web#31")}
	api, web := apiPR(), webPR()
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	f = multiFacts(web, api)
	f.Others["acme/web#31"] = &model.PullRequest{Number: 31, State: model.PROpen, HeadRepo: "acme/web", Labels: []string{"ok"}}
	res = startMulti(t, cfg, f)
	run = res.State.Runs[0]
	assert.Equal(t, "ready", run.Stage)
	assert.Equal(t, model.GateFail, run.Stages["ready"].Results[0].Status)
	assert.Equal(t, "acme/web#31 is not a pull request of the run (context.prs)", run.Stages["ready"].Results[0].Message)
}

func TestNewRefAssociations(t *testing.T) {
	before := &model.State{Runs: []*model.Run{{ID: "xr/4/1", Subject: "acme/api#4", Context: map[string]any{"prs": []any{"acme/api#12"}}}}}
	after := &model.State{Runs: []*model.Run{
		{ID: "xr/4/1", Subject: "acme/api#4", Context: map[string]any{"prs": []any{"acme/api#12", "Acme/Web#30", 9}}},
		{ID: "xr/4/2", Subject: "acme/api#4", Context: map[string]any{"prs": []any{"acme/web#30"}}},
	}}
	got := model.NewRefAssociations(before, after)
	assert.Equal(t, map[model.PRRef][]model.Follower{
		{Repo: "acme/web", Number: 30}: {{Issue: 4, Run: "xr/4/1"}, {Issue: 4, Run: "xr/4/2"}},
	}, got, "only pull requests named owner/name#N that are new; a number is left to NewAssociations")
	assert.Empty(t, model.NewRefAssociations(after, after))
}

func TestIssueRunMergesThePullRequestItsPRNumberNames(t *testing.T) {
	// An issue's run with two pull requests of its repository: merge_pr with pr_number
	// merges the one it names, behind the guard on that pull request's facts.
	cfg := issueConfig()
	cfg.Pipelines[0].Stages[2].Config.PR = mustTemplate("{{ context.prs[1] }}")
	cfg.Pipelines[0].Stages[1].Conditions[0].Eval = prLabel{label: "ok", pr: mustTemplate("all")}
	a, b := ownPR(9), ownPR(10)
	b.HeadSHA = "cccccccccc"
	f := issueFacts(a, b)
	res := startIssueRun(t, cfg, f)
	res = Step(cfg, res.State, reportOn(res.State, "feature/4/1", "implement", 1, lang.VerdictComplete, map[string]any{"pr": 9}), f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, "ready", run.Stage)
	run.Context["prs"] = append(run.Context["prs"].([]any), 10) // a second association, as a later report makes
	a.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, f, t0)
	assert.Equal(t, "ready", res.State.Runs[0].Stage, "#10 lacks ok")
	b.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k4", Event: "pull_request.labeled"}, f, t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)
	assert.Equal(t, 10, res.Effects[0].Number)
	assert.Equal(t, "cccccccccc", res.Effects[0].SHA)
	assert.Empty(t, res.Effects[0].Repo)
}

func TestMultiPRRunAuthorsOfAnyPullRequestDoNotApprove(t *testing.T) {
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	api.Author, web.Author = "dev", "mallory"
	f := multiFacts(web, api)
	res := startMulti(t, cfg, f)
	run := res.State.Runs[0]
	e := &eval{&core.Eval{Cfg: cfg, Facts: f}}
	issueView(e)
	assert.True(t, e.MayHaveAuthoredRunPR(run, "dev"), "the author of context.pr_number")
	assert.True(t, e.MayHaveAuthoredRunPR(run, "Mallory"), "the author of another of the run's pull requests")
	assert.False(t, e.MayHaveAuthoredRunPR(run, "bob"))
	delete(f.Others, "acme/web#30")
	assert.True(t, e.MayHaveAuthoredRunPR(run, "bob"), "a pull request not read: its author is not known")
	assert.Same(t, api, core.RunPRIn(f, run), "PeopleNeeded reads the run's pull request")
}
