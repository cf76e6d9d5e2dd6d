package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/model"
)

// owners gives the pull request CODEOWNERS text and the files it changes.
func owners(text string, files ...string) prOpt {
	return func(pr *model.PullRequest) {
		pr.CodeOwners = model.ParseCodeOwners(".github/CODEOWNERS", text)
		pr.Files, pr.FilesRead = files, true
	}
}

const ownersFile = `*           @lead
/src/auth/  @alice @acme/security
docs/       @bob
/vendor/
`

func TestCodeOwnersApproved(t *testing.T) {
	team := func(f *model.Facts) *model.Facts {
		f.TeamMembers = map[string][]string{"acme/security": {"carol"}}
		return f
	}
	tests := []struct {
		name  string
		facts *model.Facts
		want  model.GateResult
	}{
		{"every owned file waits", team(facts(owners(ownersFile, "src/auth/login.go", "docs/a.md"))), model.GateResult{Status: model.GatePending,
			Message: "2 of 2 owned files wait for their code owners: src/auth/login.go (@alice, @acme/security); docs/a.md (@bob)",
			Who:     "a code owner: @alice, @acme/security, @bob"}},
		{"an owner approves each file, one through a team", team(facts(owners(ownersFile, "src/auth/login.go", "docs/a.md"),
			review("carol", model.ReviewApproved, head), review("bob", model.ReviewApproved, head))),
			model.GateResult{Status: model.GatePass, Message: "every owned file (2) approved by its code owners"}},
		{"the last matching rule wins: the lead does not own auth", team(facts(owners(ownersFile, "src/auth/login.go"),
			review("lead", model.ReviewApproved, head))), model.GateResult{Status: model.GatePending,
			Message: "1 of 1 owned file waits for its code owners: src/auth/login.go (@alice, @acme/security)",
			Who:     "a code owner: @alice, @acme/security"}},
		{"a rule without owners leaves a file unowned", facts(owners(ownersFile, "vendor/x/y.go")),
			model.GateResult{Status: model.GatePass, Message: "no changed file has a code owner in .github/CODEOWNERS"}},
		{"an owner's approval on an older commit does not count", facts(owners(ownersFile, "docs/a.md"), review("bob", model.ReviewApproved, old)),
			model.GateResult{Status: model.GatePending, Message: "1 of 1 owned file waits for its code owners: docs/a.md (@bob)", Who: "a code owner: @bob"}},
		{"an owner without write access does not count", facts(owners(ownersFile, "docs/a.md"), readOnly("bob", model.ReviewApproved, head)),
			model.GateResult{Status: model.GatePending, Message: "1 of 1 owned file waits for its code owners: docs/a.md (@bob)", Who: "a code owner: @bob"}},
		{"the author owning the file does not approve it", facts(owners("* @author @bob\n", "a.go"), review("author", model.ReviewApproved, head)),
			model.GateResult{Status: model.GatePending, Message: "1 of 1 owned file waits for its code owners: a.go (@author, @bob)", Who: "a code owner: @author, @bob"}},
		{"a team not read fails closed", facts(owners(ownersFile, "src/auth/login.go"), review("carol", model.ReviewApproved, head)),
			model.GateResult{Status: model.GateError, Message: "the members of team @acme/security were not read",
				Who: "a maintainer (give the action's token read access to the organization's members)"}},
		{"no CODEOWNERS", facts(func(pr *model.PullRequest) { pr.CodeOwners, pr.FilesRead = &model.CodeOwners{}, true }),
			model.GateResult{Status: model.GateError, Message: "there is no CODEOWNERS on the default branch (.github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS)",
				Who: "a maintainer (add CODEOWNERS)"}},
		{"a line GitHub skips fails closed", facts(owners("!docs/ @bob\n", "docs/a.md")),
			model.GateResult{Status: model.GateError, Message: `.github/CODEOWNERS has lines GitHub skips: line 1: "!docs/": negation is not supported in CODEOWNERS`,
				Who: "a maintainer (fix .github/CODEOWNERS)"}},
		{"files not read", facts(func(pr *model.PullRequest) { pr.CodeOwners = model.ParseCodeOwners("CODEOWNERS", "* @bob") }),
			model.GateResult{Status: model.GateError, Message: "the changed files were not read", Who: "a maintainer"}},
		{"files not all listed", facts(owners("* @bob", "a.go"), func(pr *model.PullRequest) { pr.FilesTruncated = true }, review("bob", model.ReviewApproved, head)),
			model.GateResult{Status: model.GateError, Message: "the pull request changes more files than GitHub lists", Who: "a maintainer (split the pull request)"}},
		{"CODEOWNERS not read", facts(), model.GateResult{Status: model.GateError, Message: "CODEOWNERS was not read", Who: "a maintainer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Check = CodeOwnersApprovedName
			assert.Equal(t, tt.want, codeOwnersApproved{}.Evaluate(tt.facts))
		})
	}
}

func TestCodeOwnersListsFewFiles(t *testing.T) {
	res := codeOwnersApproved{}.Evaluate(facts(owners("* @bob", "a", "b", "c", "d", "e", "f", "g")))
	assert.Equal(t, "7 of 7 owned files wait for their code owners: a (@bob); b (@bob); c (@bob); d (@bob); e (@bob); and 2 more", res.Message)
}

func TestCodeOwnersTeams(t *testing.T) {
	pr := facts(owners(ownersFile+"*.md @acme/docs\n", "src/auth/a.go", "src/auth/b.go", "README.md", "main.go")).PR
	assert.Equal(t, []string{"acme/security", "acme/docs"}, model.CodeOwnersTeams(pr))
}
