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
	if res, bad := codeOwnersUnknown(f.PR); bad {
		return res
	}
	approvers, _ := approvals(f, nil, "")
	var waiting []string
	whoCan := map[string]bool{}
	var order []string
	owned := 0
	for _, file := range f.PR.Files {
		owners := f.PR.CodeOwners.OwnersOf(file)
		if len(owners) == 0 {
			continue
		}
		owned++
		ok, err := ownerApproved(f, owners, approvers)
		if err != "" {
			return codeOwnersError(err, "a maintainer (give the action's token read access to the organization's members)")
		}
		if ok {
			continue
		}
		waiting = append(waiting, fmt.Sprintf("%s (%s)", file, strings.Join(owners, ", ")))
		for _, o := range owners {
			if !whoCan[o] {
				whoCan[o] = true
				order = append(order, o)
			}
		}
	}
	res := model.GateResult{Check: CodeOwnersApprovedName}
	switch {
	case len(waiting) > 0:
		res.Status = model.GatePending
		res.Message = fmt.Sprintf("%d of %d owned %s %s code owners: %s",
			len(waiting), owned, model.Plural(owned, "file", "files"), model.Plural(len(waiting), "waits for its", "wait for their"), listed(waiting))
		res.Who = "a code owner: " + strings.Join(order, ", ")
	case owned == 0:
		res.Status = model.GatePass
		res.Message = "no changed file has a code owner in " + f.PR.CodeOwners.Path
	default:
		res.Status = model.GatePass
		res.Message = fmt.Sprintf("every owned file (%d) approved by its code owners", owned)
	}
	return res
}

// codeOwnersUnknown is the result when what the check reads is not known whole.
func codeOwnersUnknown(pr *model.PullRequest) (model.GateResult, bool) {
	co := pr.CodeOwners
	switch {
	case co == nil:
		return codeOwnersError("CODEOWNERS was not read", "a maintainer"), true
	case co.Path == "":
		return codeOwnersError("there is no CODEOWNERS on the default branch (.github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS)",
			"a maintainer (add CODEOWNERS)"), true
	case co.Truncated:
		return codeOwnersError(co.Path+" is too large to read whole", "a maintainer (shorten "+co.Path+")"), true
	case len(co.Errors) > 0:
		return codeOwnersError(co.Path+" has lines GitHub skips: "+strings.Join(co.Errors, "; "), "a maintainer (fix "+co.Path+")"), true
	case !pr.FilesRead:
		return codeOwnersError("the changed files were not read", "a maintainer"), true
	case pr.FilesTruncated:
		return codeOwnersError("the pull request changes more files than GitHub lists", "a maintainer (split the pull request)"), true
	}
	return model.GateResult{}, false
}

func codeOwnersError(why, who string) model.GateResult {
	return model.GateResult{Check: CodeOwnersApprovedName, Status: model.GateError, Message: why, Who: who}
}

// ownerApproved says whether one of approvers is one of owners; err names a team whose
// members were not read. An e-mail address matches no one: GitHub ties it to an account the
// action cannot see.
func ownerApproved(f *model.Facts, owners, approvers []string) (ok bool, err string) {
	for _, o := range owners {
		login, isUser := strings.CutPrefix(o, "@")
		if !isUser {
			continue
		}
		if !strings.Contains(login, "/") {
			if slices.ContainsFunc(approvers, func(a string) bool { return strings.EqualFold(a, login) }) {
				return true, ""
			}
			continue
		}
		members, read := f.TeamMembers[strings.ToLower(login)]
		if !read {
			return false, fmt.Sprintf("the members of team %s were not read", o)
		}
		for _, m := range members {
			if slices.ContainsFunc(approvers, func(a string) bool { return strings.EqualFold(a, m) }) {
				return true, ""
			}
		}
	}
	return false, ""
}

// listed names the first files and counts the others.
func listed(files []string) string {
	if len(files) <= maxListed {
		return strings.Join(files, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(files[:maxListed], "; "), len(files)-maxListed)
}

// CodeOwnersTeams are the teams ("org/slug") that own a file of pr, which the check needs
// the members of.
func CodeOwnersTeams(pr *model.PullRequest) []string {
	if pr == nil || pr.CodeOwners == nil {
		return nil
	}
	var teams []string
	for _, file := range pr.Files {
		for _, o := range pr.CodeOwners.OwnersOf(file) {
			if t, ok := strings.CutPrefix(o, "@"); ok && strings.Contains(t, "/") && !slices.Contains(teams, t) {
				teams = append(teams, t)
			}
		}
	}
	return teams
}
