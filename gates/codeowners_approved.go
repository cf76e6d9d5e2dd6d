package gates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// CodeOwnersApproved is the `codeowners_approved` check: every file the pull request
// changes that CODEOWNERS on the default branch gives owners has an approval, on the current
// head, by one of its owners — a login, or a member of a team as read from GitHub. Approvals
// count as for human_approved (write access, not the author's, not an app's or an agent's).
// CODEOWNERS is read from the default branch, never from the pull request, so a pull request
// cannot choose its own owners.
type CodeOwnersApproved struct{}

var _ engine.Gate = CodeOwnersApproved{}

// Compile takes no parameter.
func (CodeOwnersApproved) Compile(*lang.Params) (engine.Check, error) {
	return codeOwnersApproved{}, nil
}

type codeOwnersApproved struct{}

var _ engine.Check = codeOwnersApproved{}

// CodeOwnersApprovedName is the check's name in a config.
const CodeOwnersApprovedName = "codeowners_approved"

// maxListed bounds the files the message names; the rest are counted.
const maxListed = 5

// Evaluate passes when no owned file waits for its owners. What it cannot know — CODEOWNERS
// missing, unreadable or with lines GitHub skips, the changed files not all listed, a team's
// members not read — fails closed, saying what to fix.
func (codeOwnersApproved) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(CodeOwnersApprovedName)
	}
	if why, who := model.CodeOwnersUnknown(f.PR); why != "" {
		return codeOwnersError(why, who)
	}
	approvers, _ := approvals(f, nil, "")
	owned := f.PR.CodeOwners.Owned(f.PR.Files)
	var waiting, order []string
	for _, of := range owned {
		ok, err := f.OwnedBy(of.Owners, approvers)
		if err != "" {
			return codeOwnersError(err, "a maintainer (give the action's token read access to the organization's members)")
		}
		if ok {
			continue
		}
		waiting = append(waiting, fmt.Sprintf("%s (%s)", of.File, strings.Join(of.Owners, ", ")))
		for _, o := range of.Owners {
			if !slices.Contains(order, o) {
				order = append(order, o)
			}
		}
	}
	res := model.GateResult{Check: CodeOwnersApprovedName}
	switch {
	case len(waiting) > 0:
		res.Status = model.GatePending
		res.Message = fmt.Sprintf("%d of %d owned %s %s code owners: %s", len(waiting), len(owned),
			model.Plural(len(owned), "file", "files"), model.Plural(len(waiting), "waits for its", "wait for their"), listed(waiting))
		res.Who = "a code owner: " + strings.Join(order, ", ")
	case len(owned) == 0:
		res.Status = model.GatePass
		res.Message = "no changed file has a code owner in " + f.PR.CodeOwners.Path
	default:
		res.Status = model.GatePass
		res.Message = fmt.Sprintf("every owned file (%d) approved by its code owners", len(owned))
	}
	return res
}

func codeOwnersError(why, who string) model.GateResult {
	return model.GateResult{Check: CodeOwnersApprovedName, Status: model.GateError, Message: why, Who: who}
}

// listed names the first files and counts the others.
func listed(files []string) string {
	if len(files) <= maxListed {
		return strings.Join(files, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(files[:maxListed], "; "), len(files)-maxListed)
}
