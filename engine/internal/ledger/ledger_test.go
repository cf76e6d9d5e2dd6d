package ledger

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// source is a Source over plain values.
type source struct {
	pr, runPR *model.PullRequest
	stages    []*lang.Stage
	agents    map[string]*lang.Agent
	approvals map[string][]string
	need      int
	another   string
}

func (s *source) PR() *model.PullRequest              { return s.pr }
func (s *source) Stages(*lang.Pipeline) []*lang.Stage { return s.stages }
func (s *source) RunPR(*model.Run) *model.PullRequest { return s.runPR }
func (s *source) Agent(name string) *lang.Agent       { return s.agents[name] }
func (s *source) ReviewedAnother(*model.Run) string   { return s.another }
func (s *source) Approvals(_ *model.Run, st *lang.Stage, _ *model.StageRun) ([]string, int) {
	return s.approvals[st.ID], s.need
}

var t0 = time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)

func fixture() (*source, *lang.Pipeline, *model.Run) {
	sec := &lang.Stage{ID: "sec", Type: lang.StageAgent, Agent: "secbot", AgentAction: "review"}
	perf := &lang.Stage{ID: "perf", Type: lang.StageAgent, Agent: "perfbot", AgentAction: "review"}
	lead := &lang.Stage{ID: "lead", Type: lang.StageHuman, WaitFor: lang.WaitApproval}
	p := &lang.Pipeline{Name: "p", Stages: []*lang.Stage{sec, perf, lead}}
	src := &source{pr: &model.PullRequest{Number: 7, HeadSHA: "aaaa"}, stages: p.Stages,
		agents:    map[string]*lang.Agent{"secbot": {Login: "secbot[bot]"}},
		approvals: map[string][]string{"lead": {"bob"}}, need: 1}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Stage: "lead", Stages: map[string]*model.StageRun{
		"sec":  {Status: model.StageSucceeded, Verdict: lang.VerdictApprove, HeadSHA: "aaaa", EnteredAt: t0},
		"perf": {Status: model.StageSkipped},
		"lead": {Status: model.StageWaiting},
	}}
	return src, p, run
}

func TestOfHoldsWhatTheReviewStagesApproved(t *testing.T) {
	src, p, run := fixture()
	l := Of(src, p, run)
	assert.Equal(t, []model.LedgerStage{
		{Stage: "sec", Kind: lang.StageAgent, Met: true},
		{Stage: "lead", Kind: lang.StageHuman, Met: true},
	}, l.Stages, "a skipped stage is not required")
	assert.Equal(t, []model.LedgerEntry{
		{Stage: "sec", Who: "agent:secbot", Verdict: lang.VerdictApprove, SHA: "aaaa"},
		{Stage: "lead", Who: "human:bob", Verdict: lang.VerdictApprove, SHA: "aaaa"},
	}, l.Entries)

	src.need = 2
	assert.Equal(t, model.LedgerStage{Stage: "lead", Kind: lang.StageHuman, Why: "lead has 1 of 2 approvals"}, Of(src, p, run).Stages[1])
}

func TestOfDropsADismissedAgentReview(t *testing.T) {
	src, p, run := fixture()
	src.runPR = &model.PullRequest{Number: 7, HeadSHA: "aaaa", Reviews: []model.Review{
		{Author: "secbot[bot]", State: model.ReviewDismissed, CommitSHA: "aaaa", SubmittedAt: t0.Add(time.Minute)}}}
	l := Of(src, p, run)
	assert.False(t, l.Stages[0].Met)
	assert.NotEmpty(t, l.Stages[0].Why)
	assert.Equal(t, []model.LedgerEntry{{Stage: "lead", Who: "human:bob", Verdict: lang.VerdictApprove, SHA: "aaaa"}}, l.Entries)
}

func TestOfOnAnotherPullRequestMeetsNothing(t *testing.T) {
	src, p, run := fixture()
	src.another = "run p/7/1 reviewed o/r#8, not this pull request (#7)"
	l := Of(src, p, run)
	for _, ls := range l.Stages {
		if ls.Kind == lang.StageAgent {
			assert.False(t, ls.Met)
			assert.Equal(t, ls.Stage+": "+src.another, ls.Why)
		}
	}
}
