package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// CODEOWNERS patterns match as GitHub documents them (gitignore's rules).
func TestCodeOwnerMatch(t *testing.T) {
	tests := []struct {
		pattern, file string
		want          bool
	}{
		{"*", "src/a.go", true},
		{"*.js", "web/app/x.js", true},
		{"*.js", "web/app/x.ts", false},
		{"/build/logs/", "build/logs/a/b.log", true},
		{"/build/logs/", "src/build/logs/a.log", false},
		{"docs/*", "docs/getting-started.md", true},
		{"docs/*", "docs/build-app/troubleshooting.md", false},
		{"apps/", "src/apps/x.go", true},
		{"apps/", "apps.go", false},
		{"/docs/", "docs/x/y.md", true},
		{"**/logs", "a/b/logs/x.log", true},
		{"/scripts/**/*.sh", "scripts/a/b/run.sh", true},
		{"src/auth", "src/auth/login.go", true},
		{"src/auth", "lib/src/auth/login.go", false},
		{"/", "a.go", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, codeOwnerMatch(tt.pattern, tt.file), "%s ~ %s", tt.pattern, tt.file)
	}
	rules := []codeOwnerRule{{"*", []string{"@all"}}, {"/src/", []string{"@src"}}, {"*.md", nil}}
	assert.Equal(t, []string{"@src"}, ownersOf(rules, "src/a.go"), "the last match wins")
	assert.Empty(t, ownersOf(rules, "src/README.md"), "a last match without owners owns it for no one")
}
