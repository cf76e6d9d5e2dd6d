package action

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
)

const commitSrc = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: merge
        type: action
        action: merge_pr
        config:
          method: squash
          commit_title: "{{ github.pr.title }} (#{{ github.pr.number }})\nsecond line"
          commit_message: "{{ github.pr.body }}\n\nApproved-by: {{ join(github.pr.approvers, ', ') }}"
`

func commitAt(t *testing.T, vars lang.Env) (*stagetest.Context, stage.Decision, *model.Run) {
	t.Helper()
	p := stagetest.Load(t, commitSrc, "p")
	run, s := stagetest.At(t, p, "merge")
	c := stagetest.New(p, now)
	c.F.PR.Mergeable, c.F.PR.MergeState = model.Mergeable, "CLEAN"
	c.Vars = vars
	return c, Type{}.Step(c, run, s), run
}

func prVars(title, body string) lang.Env {
	return lang.Env{"github": map[string]any{"pr": map[string]any{
		"title": title, "number": 7, "body": body, "approvers": []any{"alice", "bob"},
	}}}
}

func TestMergeCommitText(t *testing.T) {
	c, dec, _ := commitAt(t, prVars("Cache the list", "Read once a minute."))
	assert.Equal(t, stage.Stay(), dec)
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, "Cache the list (#7)", c.Emitted[0].Title, "the title is one line")
	assert.Equal(t, "Read once a minute.\n\nApproved-by: alice, bob", c.Emitted[0].Body)
}

func TestMergeCommitTextIsBounded(t *testing.T) {
	c, _, _ := commitAt(t, prVars(strings.Repeat("é", 300), strings.Repeat("x", 20_000)))
	require.Len(t, c.Emitted, 1)
	title := c.Emitted[0].Title
	assert.LessOrEqual(t, len(title), maxCommitTitle)
	assert.True(t, strings.HasSuffix(title, "é…"), "cut on a character, and marked: %q", title[len(title)-8:])
	assert.Len(t, c.Emitted[0].Body, maxCommitMessage)
}

func TestMergeCommitTextWithAHoleFailsTheStage(t *testing.T) {
	vars := prVars("t", "b")
	delete(vars["github"].(map[string]any)["pr"].(map[string]any), "body")
	c, dec, run := commitAt(t, vars)
	assert.Empty(t, c.Emitted, "no merge with a message full of holes")
	assert.Equal(t, stage.MoveFail, dec.Move)
	assert.Contains(t, run.Stages["merge"].Message, "has no value")
}
