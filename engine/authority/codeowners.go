package authority

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// A human stage `from: codeowners` waits, as GitHub's "Require review from Code Owners" does,
// for each changed file that CODEOWNERS of the default branch gives owners to be approved by
// one of them; an approval counts only from someone who owns a changed file.

// ownsAChangedFile says whether login owns a file run's pull request changes.
func (r *Rules) ownsAChangedFile(run *model.Run, login string) bool {
	pr := r.runPR(run)
	if pr == nil || pr.CodeOwners == nil {
		return false
	}
	for _, of := range pr.CodeOwners.Owned(pr.Files) {
		if ok, _ := r.Facts.OwnedBy(of.Owners, []string{login}); ok {
			return true
		}
	}
	return false
}

// codeOwnersCount turns who, the code owners whose approval counts, into what the stage
// needs: met when every owned file has one of its owners among them (at once when no
// changed file has an owner); otherwise more than who, with the files still waiting as
// notes. What cannot be known whole fails closed.
func (r *Rules) codeOwnersCount(run *model.Run, who, notes []string) ([]string, int, []string) {
	pr := r.runPR(run)
	if pr == nil {
		return nil, 1, append(notes, "there is no pull request")
	}
	if why, _ := model.CodeOwnersUnknown(pr); why != "" {
		return nil, 1, append(notes, why)
	}
	owned := pr.CodeOwners.Owned(pr.Files)
	var waiting []string
	for _, of := range owned {
		ok, err := r.Facts.OwnedBy(of.Owners, who)
		if err != "" {
			return nil, 1, append(notes, err)
		}
		if !ok {
			waiting = append(waiting, fmt.Sprintf("%s (%s)", of.File, strings.Join(of.Owners, ", ")))
		}
	}
	if len(waiting) > 0 {
		return who, len(who) + 1, append(notes, "waiting for the code owners of "+strings.Join(waiting, "; "))
	}
	return who, min(len(owned), 1), notes
}

// codeOwnersWho names who can move a stage waiting for the code owners: the owners of the
// files still waiting, as far as they are known.
func (r *Rules) codeOwnersWho() string {
	pr := r.Facts.PR
	if pr == nil || pr.CodeOwners == nil {
		return "a code owner of the changed files (not the author)"
	}
	var owners []string
	for _, of := range pr.CodeOwners.Owned(pr.Files) {
		for _, o := range of.Owners {
			if !containsFold(owners, o) {
				owners = append(owners, o)
			}
		}
	}
	if len(owners) == 0 {
		return "a code owner of the changed files (not the author)"
	}
	return fmt.Sprintf("a code owner of the changed files (%s; not the author)", strings.Join(owners, ", "))
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
