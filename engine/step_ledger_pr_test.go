package engine

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// ledgerOK is pr_approvals_met in small: a PRCheck that reads the ledger it is given, and
// passes when it holds review stages and every one is met.
type ledgerOK struct{ pr *lang.Template }

func (c ledgerOK) PR() *lang.Template { return c.pr }
func (ledgerOK) ReadsLedger() bool    { return true }
func (ledgerOK) Evaluate(f *model.Facts) model.GateResult {
	switch {
	case f.Ledger == nil || len(f.Ledger.Stages) == 0:
		return model.GateResult{Status: model.GateFail, Message: "no review stage has run"}
	}
	for _, s := range f.Ledger.Stages {
		if !s.Met {
			return model.GateResult{Status: model.GatePending, Message: s.Why}
		}
	}
	return model.GateResult{Status: model.GatePass, Message: "approved " + f.PR.HeadSHA}
}

// ledgerConfig: both agents open their pull requests, a review agent reviews the run's pull
// request (context.pr_number: acme/api#12), and a gate asks for approvals on the pull
// request pr names.
func ledgerConfig(pr string) *lang.Config {
	cfg := multiConfig()
	cfg.Agents = append(cfg.Agents, &lang.Agent{Name: "reviewer", Dispatch: lang.DispatchComment, Body: "@reviewer review"})
	p := cfg.Pipelines[0]
	p.Stages[1].OnComplete = "review"
	review := &lang.Stage{ID: "review", Type: lang.StageAgent, Agent: "reviewer", AgentAction: "review", OnComplete: "ready"}
	p.Stages = append(p.Stages[:2], append([]*lang.Stage{review}, p.Stages[2:]...)...)
	p.Stages[3].Conditions = []lang.Condition{{Check: "pr_approvals_met", Eval: ledgerOK{pr: mustTemplate(pr)}}}
	p.Stages[3].OnFail = ""
	return cfg
}

func TestPRApprovalsMetCountsOnlyThePullRequestReviewed(t *testing.T) {
	for _, tc := range []struct {
		pr     string
		merges int
		why    string
	}{
		{"{{ context.prs[0] }}", 2, "the review approved acme/api#12's head"},
		{"{{ context.prs[1] }}", 0, "nothing reviewed acme/web#30: the approval of #12 does not count for it"},
		{"all", 0, "every pull request needs its own approvals"},
		{"acme/api#99", 0, "a pull request that is not the run's fails the gate"},
		{"acme/other#12", 0, "the same number in another repository is another pull request"},
	} {
		t.Run(tc.pr, func(t *testing.T) {
			cfg := ledgerConfig(tc.pr)
			api, web := apiPR(), webPR()
			f := multiFacts(web, api)
			res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
			res = dispatched(t, cfg, res, f, t0)
			res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": 12}), f, t0)
			res = dispatched(t, cfg, res, f, t0)
			res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "web", 1, lang.VerdictComplete, map[string]any{"pr": 30}), f, t0)
			res = dispatched(t, cfg, res, f, t0)
			require.Equal(t, "review", res.State.Runs[0].Stage, res.State.Runs[0].Message)
			res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "review", 1, lang.VerdictApprove, nil), f, t0)
			merges := 0
			for _, e := range res.Effects {
				if e.Kind == model.EffectMerge {
					merges++
				}
			}
			assert.Equal(t, tc.merges, merges, tc.why)
			if tc.merges == 0 {
				assert.Equal(t, "ready", res.State.Runs[0].Stage)
			}
			if strings.HasPrefix(tc.pr, "acme/") {
				r := res.State.Runs[0].Stages["ready"].Results
				require.Len(t, r, 1)
				assert.Equal(t, model.GateFail, r[0].Status)
				assert.Contains(t, r[0].Message, "is not a pull request of the run")
			}
		})
	}
}

// TestMergeGuardNeverCountsAnotherPullRequestsApprovals: the review agent approved the
// run's pull request (acme/api#12) and nothing reviewed acme/web#30. The gate before the
// merges reads the run's ledger (pr_approvals_met without pr) and passes on #12; the merge
// guard of #30 judges the same gate on #30's facts, where the approval of #12 is not one:
// neither is merged. Even when #30's head is the very commit the agent approved on #12 (one
// commit can head two pull requests, against different bases), the approval was given on
// #12, not on #30.
func TestMergeGuardNeverCountsAnotherPullRequestsApprovals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		webHead string
	}{
		{"another head", "cccccccccc"},
		{"the same head", "aaaaaaaaaa"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ledgerConfig("")
			cfg.Pipelines[0].Stages[3].Conditions = []lang.Condition{{Check: "pr_approvals_met", Eval: ledgerOK{}}}
			api, web := apiPR(), webPR()
			web.HeadSHA = tc.webHead
			f := multiFacts(web, api)
			res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
			res = dispatched(t, cfg, res, f, t0)
			res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": 12}), f, t0)
			res = dispatched(t, cfg, res, f, t0)
			res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "web", 1, lang.VerdictComplete, map[string]any{"pr": 30}), f, t0)
			res = dispatched(t, cfg, res, f, t0)
			require.Equal(t, "review", res.State.Runs[0].Stage, res.State.Runs[0].Message)
			res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "review", 1, lang.VerdictApprove, nil), f, t0)
			run := res.State.Runs[0]
			require.Equal(t, model.StagePassed, run.Stages["ready"].Status, "the gate reads the run's pull request, #12, which the agent approved")
			for _, e := range res.Effects {
				assert.NotEqual(t, model.EffectMerge, e.Kind, "no merge: #30 has no approval of its own (%+v)", e)
			}
			assert.Contains(t, run.Stages["merge-all"].Message, "acme/web#30 (branch merge-web)")
			assert.Contains(t, run.Stages["merge-all"].Message, "none is merged")
		})
	}
}

// TestMergeGuardNeverCountsAnotherPullRequestsHumanApprovals: a person approved the run's
// pull request (acme/api#12) at its human stage; acme/web#30, heading the same commit, has no
// review. The merge guard of #30 reads the run's human stage against #30: it was met by
// reviews of #12, so it is not met for #30, and neither is merged.
func TestMergeGuardNeverCountsAnotherPullRequestsHumanApprovals(t *testing.T) {
	cfg := multiConfig()
	p := cfg.Pipelines[0]
	p.Stages[1].OnComplete = "sign"
	sign := &lang.Stage{ID: "sign", Type: lang.StageHuman, WaitFor: lang.WaitApproval, Count: 1, OnComplete: "ready"}
	p.Stages = append(p.Stages[:2], append([]*lang.Stage{sign}, p.Stages[2:]...)...)
	p.Stages[3].Conditions = []lang.Condition{{Check: "pr_approvals_met", Eval: ledgerOK{}}}
	api, web := apiPR(), webPR()
	web.HeadSHA = api.HeadSHA
	api.Reviews = []model.Review{{Author: "bob", State: model.ReviewApproved, CommitSHA: api.HeadSHA, SubmittedAt: t0, CanPush: true}}
	f := multiFacts(web, api)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "issues.labeled"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "api", 1, lang.VerdictComplete, map[string]any{"pr": 12}), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "xr/4/1", "web", 1, lang.VerdictComplete, map[string]any{"pr": 30}), f, t0)
	run := res.State.Runs[0]
	require.NotNil(t, run.Stages["ready"], run.Message)
	require.Equal(t, model.StagePassed, run.Stages["ready"].Status, "bob approved #12, the run's pull request")
	for _, e := range res.Effects {
		assert.NotEqual(t, model.EffectMerge, e.Kind, "no merge: nobody approved #30 (%+v)", e)
	}
	assert.Contains(t, run.Stages["merge-all"].Message, "acme/web#30 (branch merge-web)")
	assert.Contains(t, run.Stages["merge-all"].Message, "reviewed acme/api#12, not this pull request")
}
