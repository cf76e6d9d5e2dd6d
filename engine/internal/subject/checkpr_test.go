package subject

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// fakeGateKernel is a GateKernel over fakeKernel: the gate's run in scope, and a ledger per
// run of the pull request it is read on.
type fakeGateKernel struct {
	*fakeKernel
	p      *lang.Pipeline
	run    *model.Run
	env    lang.Env
	ledger map[string]model.LedgerStage // run ID: its one review stage
	asked  []string                     // "<run> on #<n>"
}

func (k *fakeGateKernel) Gate() (*lang.Pipeline, *model.Run, lang.Env, bool) {
	return k.p, k.run, k.env, k.run != nil
}

func (k *fakeGateKernel) LedgerOn(pr *model.PullRequest, _ *lang.Pipeline, r *model.Run) *model.Ledger {
	k.asked = append(k.asked, r.ID+" on #"+pr.HeadSHA)
	return &model.Ledger{Stages: []model.LedgerStage{k.ledger[r.ID]}}
}

// headCheck passes on a pull request whose head is "sha12"; it reads the ledger when
// ledger is set, and then passes only with every stage met.
type headCheck struct{ ledger bool }

func (c headCheck) ReadsLedger() bool { return c.ledger }
func (c headCheck) Evaluate(f *model.Facts) model.GateResult {
	if c.ledger {
		for _, s := range f.Ledger.Stages {
			if !s.Met {
				return model.GateResult{Status: model.GatePending, Message: s.Why}
			}
		}
		return model.GateResult{Status: model.GatePass, Message: "approved"}
	}
	if f.PR.HeadSHA == "sha12" {
		return model.GateResult{Status: model.GatePass, Message: "green in " + f.Repo}
	}
	return model.GateResult{Status: model.GateFail, Message: "red in " + f.Repo}
}

func TestCheckPRReadsTheRunsPullRequests(t *testing.T) {
	s := issueScope(map[int]*model.PullRequest{2: openPR(2, own, "dev")},
		map[string]*model.PullRequest{"acme/api#12": openPR(12, "acme/api", "bob")})
	run := &model.Run{ID: "m/7/1"}
	k := &fakeGateKernel{fakeKernel: &fakeKernel{scope: s}, run: run,
		env: lang.Env{"context": map[string]any{"prs": []any{"acme/api#12", "acme/web#2"}}}}
	c := lang.Condition{Check: "ci", Eval: headCheck{}}
	r := CheckPR(k, c, s.Facts, template(t, "acme/api#12"))
	assert.Equal(t, model.GateResult{Check: "ci", Status: model.GatePass, Message: "acme/api#12: green in acme/api"}, r)
	r = CheckPR(k, c, s.Facts, template(t, "all"))
	assert.Equal(t, model.GateFail, r.Status, "one failing fails it")
	assert.Equal(t, "acme/web#2: red in acme/web; acme/api#12: green in acme/api", r.Message)
	r = CheckPR(k, c, s.Facts, template(t, "acme/api#13"))
	assert.Equal(t, "acme/api#13 is not a pull request of the run (context.prs)", r.Message)
	assert.Equal(t, model.GateFail, r.Status)
	k.env = lang.Env{"context": map[string]any{}}
	r = CheckPR(k, c, s.Facts, template(t, "all"))
	assert.Equal(t, model.GatePending, r.Status, "no pull request yet")
	k.run = nil
	assert.Equal(t, model.GateError, CheckPR(k, c, s.Facts, template(t, "all")).Status)
}

func TestLedgerOfAnotherPullRequest(t *testing.T) {
	api := openPR(12, "acme/api", "bob")
	s := issueScope(map[int]*model.PullRequest{2: openPR(2, own, "dev")}, map[string]*model.PullRequest{"acme/api#12": api})
	parent := &model.Run{ID: "m/7/1", Pipeline: "m", Context: map[string]any{"pr_number": "acme/web#2", "prs": []any{"acme/web#2", "acme/api#12"}},
		Stages: map[string]*model.StageRun{"sub": {Child: "s/7/1"}, "gone": {Child: "s/7/2", Status: model.StageCancelled}}}
	child := &model.Run{ID: "s/7/1", Pipeline: "s", Parent: "m/7/1", Context: map[string]any{"pr_number": "acme/api#12"}}
	other := &model.Run{ID: "s/7/2", Pipeline: "s", Parent: "m/7/1", Context: map[string]any{"pr_number": "acme/api#12"}}
	k := &fakeGateKernel{fakeKernel: &fakeKernel{scope: s, runs: []*model.Run{parent, child, other},
		pipelines: map[string]*lang.Pipeline{"m": {Name: "m"}, "s": {Name: "s"}}},
		p: &lang.Pipeline{Name: "m"}, run: parent, env: lang.Env{"context": parent.Context},
		ledger: map[string]model.LedgerStage{"m/7/1": {Stage: "review", Met: true}, "s/7/1": {Stage: "review-api", Why: "review-api: not yet"}}}
	l := LedgerForPR(k, k.p, parent, model.PRRef{Repo: "acme/api", Number: 12}, api, own)
	assert.Equal(t, []string{"s/7/1 on #sha12"}, k.asked, "only the child that reviewed acme/api#12, not a cancelled one")
	assert.Equal(t, []model.LedgerStage{{Stage: "review-api", Why: "review-api: not yet"}}, l.Stages)
	r := CheckPR(k, lang.Condition{Check: "approved", Eval: headCheck{ledger: true}}, s.Facts, template(t, "acme/api#12"))
	assert.Equal(t, model.GatePending, r.Status, "the parent's approval of acme/web#2 does not count for acme/api#12")
	k.asked = nil
	r = CheckPR(k, lang.Condition{Check: "approved", Eval: headCheck{ledger: true}}, s.Facts, template(t, "2"))
	assert.Equal(t, []string{"m/7/1 on #sha2"}, k.asked)
	assert.Equal(t, model.GatePass, r.Status)
}
