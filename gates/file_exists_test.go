package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
)

func TestFileExists(t *testing.T) {
	c := mustCompile(t, FileExists{}, "file_exists", `{paths: [CHANGELOG.md, "docs/*.md"]}`)
	paths := func(m map[string]bool) prOpt { return func(pr *engine.PullRequest) { pr.PathsExist = m } }
	assert.Equal(t, engine.GateResult{Check: "file_exists", Status: engine.GatePass, Message: "CHANGELOG.md and docs/*.md exist on abc1234"},
		c.Evaluate(facts(paths(map[string]bool{"CHANGELOG.md": true, "docs/*.md": true}))))
	assert.Equal(t, engine.GateResult{Check: "file_exists", Status: engine.GatePending, Message: "docs/*.md is not on the head abc1234",
		Who: "its author (add it)"}, c.Evaluate(facts(paths(map[string]bool{"CHANGELOG.md": true, "docs/*.md": false}))))
	assert.Equal(t, engine.GateResult{Check: "file_exists", Status: engine.GateError, Message: "whether docs/*.md exists on the head was not read"},
		c.Evaluate(facts(paths(map[string]bool{"CHANGELOG.md": true}))))
	assert.Equal(t, engine.GateError, c.Evaluate(facts()).Status)
	_, unsupported := c.(engine.Unsupported)
	assert.False(t, unsupported)
}

func TestReadablePattern(t *testing.T) {
	for p, want := range map[string]bool{"a/b.md": true, "docs/*.md": true, "*.md": true, "src/**/x": false, "s*/x": false, "a/[": false} {
		assert.Equal(t, want, readablePattern(p), p)
	}
}
