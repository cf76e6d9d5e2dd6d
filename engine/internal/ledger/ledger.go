// Package ledger builds a run's approvals ledger: what the run's review stages approved,
// and on which head. An agent's verdict is recorded as "agent:<name>", a person's review
// (or /pipeline approve) as "human:<login>", each with the head SHA it was given on. The
// evaluation sets Facts.Ledger to it while it evaluates the gates of a run; checks read it
// and never change it. The package sees the evaluation only through Source.
package ledger

import (
	"strconv"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/agentreview"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// Source is what the ledger reads of the evaluation.
type Source interface {
	// PR is the subject's pull request, nil on an issue without one.
	PR() *model.PullRequest
	// Stages are the stages of p whose approvals the ledger holds, in order.
	Stages(p *lang.Pipeline) []*lang.Stage
	// Approvals are who approved human stage s of run (sr), and how many it needs.
	Approvals(run *model.Run, s *lang.Stage, sr *model.StageRun) (who []string, need int)
	// RunPR is the pull request run reviews, nil when it is the subject's.
	RunPR(run *model.Run) *model.PullRequest
	// Agent is the agent of that name in the config, nil when there is none.
	Agent(name string) *lang.Agent
	// ReviewedAnother says why run's reviews were given on another pull request than the
	// subject's, or "".
	ReviewedAnother(run *model.Run) string
}

// Of builds the run's ledger against the current facts. Stages the run has not entered,
// or left by `/pipeline skip`, are not required.
func Of(src Source, p *lang.Pipeline, run *model.Run) *model.Ledger {
	l := &model.Ledger{Entries: []model.LedgerEntry{}, Stages: []model.LedgerStage{}}
	head := ""
	if src.PR() != nil {
		head = src.PR().HeadSHA
	}
	for _, s := range src.Stages(p) { // the gates before them give it nothing
		sr := run.Stages[s.ID]
		if sr == nil || sr.Status == model.StageSkipped {
			continue
		}
		switch {
		case model.IsReviewStage(s):
			model.AgentLedger(l, s, sr, head)
		case s.Type == lang.StageParallel:
			core.BranchLedger(l, run, s, head)
		case s.Type == lang.StageHuman && s.WaitFor == lang.WaitApproval && src.PR() != nil:
			who, need := src.Approvals(run, s, sr)
			for _, w := range who {
				l.Entries = append(l.Entries, model.LedgerEntry{Stage: s.ID, Who: model.LedgerHuman + w, Verdict: lang.VerdictApprove, SHA: head})
			}
			ls := model.LedgerStage{Stage: s.ID, Kind: lang.StageHuman, Met: len(who) >= need}
			if !ls.Met {
				ls.Why = s.ID + " has " + strconv.Itoa(len(who)) + " of " + strconv.Itoa(need) + " approvals"
			}
			l.Stages = append(l.Stages, ls)
		}
	}
	dropWithdrawn(src, p, run, l)
	if why := src.ReviewedAnother(run); why != "" {
		core.NotOn(l, why)
	}
	return l
}

// dropWithdrawn takes out of l the verdicts of run's agents whose review GitHub has since
// dismissed (agentreview.Dismissed): a dismissed review leaves the ledger, and its stage
// is not met.
func dropWithdrawn(src Source, p *lang.Pipeline, run *model.Run, l *model.Ledger) {
	pr := src.RunPR(run)
	if pr == nil {
		pr = src.PR()
	}
	gone := map[string]string{}
	for _, b := range agentStages(p) {
		sr, ag := run.Stages[b.ID], src.Agent(b.Agent)
		if sr != nil && ag != nil && pr != nil {
			if why := agentreview.Dismissed(pr, b.Agent, ag.ReviewLogin(), sr); why != "" {
				gone[b.ID] = why
			}
		}
	}
	kept := l.Entries[:0]
	for _, en := range l.Entries {
		if gone[en.Stage] == "" { // stage ids are unique: an agent stage's entries are its agent's
			kept = append(kept, en)
		}
	}
	l.Entries = kept
	for i, ls := range l.Stages {
		if why := gone[ls.Stage]; why != "" && ls.Kind == lang.StageAgent {
			l.Stages[i].Met, l.Stages[i].Why = false, why
		}
	}
}

// agentStagesKey is the key of a pipeline's agent stages among its memos.
type agentStagesKey struct{}

// agentStages are p's agent stages and agent branches, in order, found once per loaded
// pipeline: an event costs the same however many gates the pipeline has.
func agentStages(p *lang.Pipeline) []*lang.Stage {
	return p.Memo(agentStagesKey{}, func() any {
		var out []*lang.Stage
		for _, s := range p.Stages {
			for _, b := range append([]*lang.Stage{s}, s.Branches...) {
				if b.Type == lang.StageAgent {
					out = append(out, b)
				}
			}
		}
		return out
	}).([]*lang.Stage)
}
