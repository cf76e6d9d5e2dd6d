package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

func TestFileExists(t *testing.T) {
	c := mustCompile(t, FileExists{}, "file_exists", `{paths: [CHANGELOG.md, "docs/*.md"]}`)
	paths := func(m map[string]bool) prOpt { return func(pr *model.PullRequest) { pr.PathsExist = m } }
	assert.Equal(t, model.GateResult{Check: "file_exists", Status: model.GatePass, Message: "CHANGELOG.md and docs/*.md exist on abc1234"},
		c.Evaluate(facts(paths(map[string]bool{"CHANGELOG.md": true, "docs/*.md": true}))))
	assert.Equal(t, model.GateResult{Check: "file_exists", Status: model.GatePending, Message: "docs/*.md is not on the head abc1234",
		Who: "its author (add it)"}, c.Evaluate(facts(paths(map[string]bool{"CHANGELOG.md": true, "docs/*.md": false}))))
	assert.Equal(t, model.GateResult{Check: "file_exists", Status: model.GateError, Message: "whether docs/*.md exists on the head was not read"},
		c.Evaluate(facts(paths(map[string]bool{"CHANGELOG.md": true}))))
	assert.Equal(t, model.GateError, c.Evaluate(facts()).Status)
}

// Globs with wildcards in directories and `**` load; a malformed one does not.
func TestFileExistsPatterns(t *testing.T) {
	c := mustCompile(t, FileExists{}, "file_exists", `{paths: ["src/*/auth/*.go", "src/**/auth/*_test.go", "docs/"]}`)
	assert.Equal(t, []string{"src/*/auth/*.go", "src/**/auth/*_test.go", "docs/"}, c.(interface{ Paths() []string }).Paths())
	assert.Equal(t, model.GatePass, c.Evaluate(facts(func(pr *model.PullRequest) {
		pr.PathsExist = map[string]bool{"src/*/auth/*.go": true, "src/**/auth/*_test.go": true, "docs/": true}
	})).Status)
	for _, bad := range []string{`{paths: ["src/[auth/*.go"]}`, `{paths: ["a//b"]}`, `{paths: ['x\']}`} {
		_, errs := compile(t, FileExists{}, "file_exists", bad)
		assert.NotEmpty(t, errs, bad)
	}
}
