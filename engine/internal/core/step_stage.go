package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// HoldAction keeps an action stage waiting, without calling GitHub, for a reason its
// facts show (a draft, conflicts).
func (e *Eval) HoldAction(run *model.Run, stage *lang.Stage, why, who string) bool {
	sr := run.Stages[stage.ID]
	sr.Status = model.StageWaiting
	sr.Results = []model.GateResult{{Check: "mergeable", Status: model.GatePending, Message: why, Who: who}}
	run.Status = model.RunWaiting
	return false
}

// KeepHeadBranch says why delete_branch must not delete the PR's head branch, or "". Only a
// branch of the repository itself is deleted: a fork's branch is not the action's to delete, and
// deleting heads/<name> here would delete this repository's branch of the same name. The
// default branch is never deleted (GitHub refuses anyway).
func KeepHeadBranch(f *model.Facts) string {
	pr := f.PR
	switch {
	case pr.HeadRef == "":
		return "its name is unknown"
	case pr.HeadRepo == "":
		return "GitHub does not say which repository it lives in (its fork was deleted)"
	case pr.CrossRepo:
		return fmt.Sprintf("it is a branch of the fork %s, not of %s", pr.HeadRepo, f.Repo)
	case !strings.EqualFold(pr.HeadRepo, f.Repo):
		return fmt.Sprintf("it is a branch of %s, not of %s", pr.HeadRepo, f.Repo)
	case pr.HeadRef == f.DefaultBranch:
		return "it is the default branch of " + f.Repo
	}
	return ""
}

// hasLabel reports whether labels holds label name, compared as GitHub compares labels.
func HasLabel(labels []string, name string) bool {
	for _, l := range labels {
		if lang.SameLabel(l, name) {
			return true
		}
	}
	return false
}
