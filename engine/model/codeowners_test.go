package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// githubExample is the example CODEOWNERS of GitHub's documentation ("About code owners").
const githubExample = `# These owners will be the default owners for everything in the repo.
*       @global-owner1 @global-owner2
*.js    @js-owner #This is an inline comment.
*.go docs@example.com
*.txt @octo-org/octocats
/build/logs/ @doctocat
docs/*  docs@example.com
apps/ @octocat
/docs/ @doctocat
/scripts/ @doctocat @octocat
**/logs @octocat
/apps/ @octocat
/apps/github
/apps/ @octocat
/apps/github @doctocat
`

// TestCodeOwnersGitHubExample holds OwnersOf to what GitHub's documentation says of its own
// example, line by line.
func TestCodeOwnersGitHubExample(t *testing.T) {
	c := ParseCodeOwners(".github/CODEOWNERS", githubExample)
	assert.Empty(t, c.Errors)
	tests := []struct {
		file string
		want []string
	}{
		{"README.md", []string{"@global-owner1", "@global-owner2"}},
		{"src/app.js", []string{"@js-owner"}},
		{"main.go", []string{"docs@example.com"}},
		{"notes/a.txt", []string{"@octo-org/octocats"}},
		{"build/logs/today.log", []string{"@octocat"}}, // /build/logs/, then **/logs: the last wins
		{"docs/getting-started.md", []string{"@doctocat"}},
		{"docs/build-app/troubleshooting.md", []string{"@doctocat"}},    // not docs/* (one level), but /docs/
		{"lib/docs/x.md", []string{"@global-owner1", "@global-owner2"}}, // docs/* has a slash: from the root only
		{"web/apps/x.rb", []string{"@octocat"}},                         // apps/ anywhere
		{"scripts/deploy.sh", []string{"@doctocat", "@octocat"}},
		{"deep/down/logs/x", []string{"@octocat"}},
		{"apps/github/x.rb", []string{"@doctocat"}},
		{"apps/other/x.rb", []string{"@octocat"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			assert.Equal(t, tt.want, c.OwnersOf(tt.file))
		})
	}
}

func TestCodeOwnersLines(t *testing.T) {
	c := ParseCodeOwners("CODEOWNERS", "\\#notes @alice # a comment\n!vendor/ @bob\nsrc/[ab]/ @carol\nlib/ alice\n\n  # only a comment\nweb/ @dora @acme/web x@y.org\n")
	assert.Equal(t, []string{
		`line 2: "!vendor/": negation is not supported in CODEOWNERS`,
		`line 3: "src/[ab]/": character ranges are not supported in CODEOWNERS`,
		`line 4: "alice" is not an owner (write @login, @org/team or an e-mail address)`,
	}, c.Errors)
	assert.Equal(t, []CodeOwnerRule{
		{Line: 1, Pattern: "#notes", Owners: []string{"@alice"}},
		{Line: 7, Pattern: "web/", Owners: []string{"@dora", "@acme/web", "x@y.org"}},
	}, c.Rules)
	assert.Equal(t, []string{"@alice"}, c.OwnersOf("#notes"))
	assert.Empty(t, c.OwnersOf("web"), "web/ names a directory, not a file called web")
	assert.Equal(t, []string{"@dora", "@acme/web", "x@y.org"}, c.OwnersOf("a/web/b/c.go"))
}
