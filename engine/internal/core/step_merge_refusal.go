package core

// EffectUpdateBranch is the effect of ActionUpdateBranch. SHA is the head it expects.
const (
	EffectUpdateBranch       EffectKind = "update_branch"
	MergeStateBehind                    = "BEHIND"
	MergeStateUnknown                   = "UNKNOWN"
	RuleWhenBehind                      = "when_behind"
	MergeUnknownWhy                     = "GitHub has not computed whether the pull request can be merged yet"
	MergeUnknownWho                     = "GitHub (computing mergeability; checked again on the next event or sweep)"
	UpdateBranchWho                     = "GitHub (bringing the branch up to date with its base)"
	updateBranchUpToDateDone            = "the branch is up to date with its base"
)

// PlanUpdateBranch is the update_branch action: nothing to do when the facts read show the
// head up to date with its base; otherwise GitHub is asked (a head already up to date is
// done: the shell counts GitHub's "no new commits" as success).
func (e *Eval) PlanUpdateBranch(eff Effect) PlannedAction {
	pr := e.Facts.PR
	if e.Issue != nil || pr == nil {
		return PlannedAction{Err: "update_branch updates a pull request's branch; this run's subject is an issue"}
	}
	if pr.BehindBy != nil && *pr.BehindBy == 0 {
		return PlannedAction{Done: updateBranchUpToDateDone}
	}
	eff.Kind, eff.SHA = EffectUpdateBranch, pr.HeadSHA
	return PlannedAction{Eff: eff}
}
