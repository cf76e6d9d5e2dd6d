package engine

import "fmt"

// The evaluation of one stage: gates against facts, and the actions they lead to.

// evaluate runs the conditions of gate stage against the facts. blocked: a required
// condition does not pass; failed: one has decidedly failed.
func (e *eval) evaluate(stage *Stage) (results []GateResult, blocked, failed bool) {
	results = make([]GateResult, 0, len(stage.Conditions))
	for _, c := range stage.Conditions {
		r := c.Eval.Evaluate(e.facts)
		r.Check, r.Optional = c.Check, c.Optional
		results = append(results, r)
		if c.Optional || r.Status == GatePass {
			continue
		}
		blocked = true
		if r.Status == GateFail {
			failed = true
		}
	}
	return results, blocked, failed
}

func (e *eval) gate(run *Run, stage *Stage) bool {
	sr := run.Stages[stage.ID]
	results, blocked, failed := e.evaluate(stage)
	sr.Results = results
	switch {
	case !blocked:
		run.VerifiedSHA, run.VerifiedBy = e.facts.PR.HeadSHA, stage.ID
		e.leave(run, stage, StagePassed, stage.OnPass, "gate passed on "+short(e.facts.PR.HeadSHA))
		return true
	case failed && stage.OnFail != "":
		e.leave(run, stage, StageFailed, stage.OnFail, "gate failed: "+firstFailure(results))
		return true
	}
	sr.Status = StageWaiting
	run.Status = RunWaiting
	return false
}

// reverify guards a merge with every gate the run passed on its way: the head must
// still be the one they passed on (otherwise the run goes back to the earliest of
// them), and a merge tried before — refused by GitHub, or held for a draft or conflicts —
// goes ahead only if each of them still holds on today's facts (otherwise back to the
// first that does not). It reports whether the
// run moved; hold is set when the gates cannot be checked at all.
func (e *eval) reverify(p *Pipeline, run *Run, stage *Stage) (moved bool, hold string) {
	if run.VerifiedBy == "" {
		return false, "" // no gate before this merge: the pipeline merges unconditionally
	}
	if p.Stage(run.VerifiedBy) == nil {
		// The config changed under the run and the gate is gone: fail closed.
		return false, fmt.Sprintf("gate %q, which passed, is no longer in pipeline %q; the merge cannot be verified", run.VerifiedBy, p.Name)
	}
	var passed []*Stage
	for _, s := range p.Stages {
		if sr := run.Stages[s.ID]; s.Type == StageGate && s.ID != stage.ID && sr != nil && sr.Status == StagePassed {
			passed = append(passed, s)
		}
	}
	pr := e.facts.PR
	if run.VerifiedSHA != pr.HeadSHA && len(passed) > 0 {
		e.enter(run, stage.ID, passed[0].ID, fmt.Sprintf("head moved from %s to %s after gate %q passed; checking again",
			short(run.VerifiedSHA), short(pr.HeadSHA), passed[0].ID))
		return true, ""
	}
	if sr := run.Stages[stage.ID]; sr.Status == StageWaiting && len(sr.Results) == 0 {
		// First attempt, right after the gates passed on these facts (and on what this
		// pipeline did since, such as taking off a label its gate wanted).
		return false, ""
	}
	for _, g := range passed {
		if results, blocked, _ := e.evaluate(g); blocked {
			e.enter(run, stage.ID, g.ID, fmt.Sprintf("gate %q no longer holds (%s); checking again", g.ID, firstUnmet(results)))
			return true, ""
		}
	}
	return false, ""
}

// holdAction keeps an action stage waiting, without calling GitHub, for a reason its
// facts show (a draft, conflicts).
func (e *eval) holdAction(run *Run, stage *Stage, why, who string) bool {
	sr := run.Stages[stage.ID]
	sr.Status = StageWaiting
	sr.Results = []GateResult{{Check: "mergeable", Status: GatePending, Message: why, Who: who}}
	run.Status = RunWaiting
	return false
}

func (e *eval) action(p *Pipeline, run *Run, stage *Stage) bool {
	sr := run.Stages[stage.ID]
	pr := e.facts.PR
	key := fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, sr.Attempt, stage.Action)
	eff := Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: EffectKind(stage.Action), Number: pr.Number}
	switch stage.Action {
	case ActionMergePR:
		if pr.State == PRMerged {
			e.leave(run, stage, StageSucceeded, stage.OnSuccess, "the pull request is merged")
			return true
		}
		if pr.State == PRClosed {
			return e.actionFailed(run, stage, "the pull request was closed without merging")
		}
		moved, hold := e.reverify(p, run, stage)
		if moved {
			return true
		}
		if hold != "" {
			return e.holdAction(run, stage, hold, "a maintainer (restart the pipeline)")
		}
		switch {
		case pr.Draft:
			return e.holdAction(run, stage, "the pull request is a draft", "its author (mark it ready for review)")
		case pr.Mergeable == Conflicting:
			return e.holdAction(run, stage, "the pull request has conflicts with its base branch", "its author (resolve the conflicts)")
		}
		// Merge exactly the head the gates passed on: if it moved, GitHub refuses (409).
		eff.SHA, eff.Method, eff.Delete, eff.HeadRef = pr.HeadSHA, stage.Config.Method, stage.Config.DeleteBranch, pr.HeadRef
		if run.VerifiedSHA != "" {
			eff.SHA = run.VerifiedSHA
		}
	case ActionAddLabel:
		for _, l := range stage.Config.Labels {
			if !pr.HasLabel(l) && !hasLabel(eff.Labels, l) {
				eff.Labels = append(eff.Labels, l)
			}
		}
		if len(eff.Labels) == 0 {
			e.leave(run, stage, StageSucceeded, stage.OnSuccess, "labels present")
			return true
		}
	case ActionRemoveLabel:
		for _, l := range stage.Config.Labels {
			// Remove the label by its name on the PR (`WIP` for `wip`).
			if on, ok := pr.Label(l); ok && !hasLabel(eff.Labels, on) {
				eff.Labels = append(eff.Labels, on)
			}
		}
		if len(eff.Labels) == 0 {
			e.leave(run, stage, StageSucceeded, stage.OnSuccess, "labels absent")
			return true
		}
	case ActionComment:
		if contains(run.Applied, key) || contains(pr.Posted, key) {
			e.leave(run, stage, StageSucceeded, stage.OnSuccess, "comment posted")
			return true
		}
		eff.Body = stage.Config.Body
	}
	if sr.Status == StageRetrying && e.settling {
		run.Status = RunWaiting
		return false
	}
	if sr.Status != StageRetrying {
		sr.Status = StageActing
	}
	run.Status = RunRunning
	e.effects = append(e.effects, eff)
	return false
}

func (e *eval) actionFailed(run *Run, stage *Stage, why string) bool {
	run.Stages[stage.ID].Message = why
	if stage.OnFailure != "" {
		e.leave(run, stage, StageFailed, stage.OnFailure, why)
		return true
	}
	run.Stages[stage.ID].Status = StageFailed
	e.finish(run, RunFailed, TargetFail, fmt.Sprintf("stage %q failed: %s", stage.ID, why))
	return false
}

// hasLabel reports whether labels holds label name, compared as GitHub compares labels.
func hasLabel(labels []string, name string) bool {
	for _, l := range labels {
		if SameLabel(l, name) {
			return true
		}
	}
	return false
}
