package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const commentTriggerYAML = `
version: 1
pipelines:
  ack:
    trigger: {event: issue_comment.created, if: "trigger.comment.user.login != 'nobody'"}
    stages:
      - {id: mark, type: action, action: add_label, config: {label: seen}, on_success: complete}
`

// A comment starts a pipeline triggered on comments only when the comment the event names
// is in the facts, is its author's word and its author may use chat-ops; the permission
// read for it is the event's actor's.
func TestCommentTriggerCountsOnlyChatOpsPeople(t *testing.T) {
	cfg := loadYAML(t, commentTriggerYAML)
	f := prFacts()
	f.People = model.People{Permissions: map[string]string{"alice": "write", "rita": "read", "bot[bot]": "write"}}
	f.PR.Comments = []model.IssueComment{
		{ID: 1, Author: "rita", Body: "hi"},
		{ID: 2, Author: "bot[bot]", Body: "hi", IsBot: true},
		{ID: 3, Author: "alice", Body: "hi", EditedBy: "rita"},
		{ID: 4, Author: "alice", Body: "hi"},
	}
	for _, c := range []struct {
		id    int64
		actor string
		why   string
	}{
		{1, "rita", "@rita's is read"},
		{2, "bot[bot]", "is by an app"},
		{3, "alice", "last edited by @rita"},
		{9, "alice", "is not among the comments read"},
	} {
		res := Step(cfg, nil, model.Input{Key: "k", Event: "issue_comment.created", Actor: c.actor, CommentID: c.id}, f, t0)
		assert.Empty(t, res.State.Runs, "comment %d", c.id)
		assert.Contains(t, joinLog(res.Log), c.why, "comment %d", c.id)
	}
	res := Step(cfg, nil, model.Input{Key: "k", Event: "issue_comment.created", Actor: "alice", CommentID: 4}, f, t0)
	require.Len(t, res.State.Runs, 1)
	assert.Equal(t, model.Needs{Permissions: []string{"dev"}}, core.ReactionNeeds(cfg, &model.State{}, model.Input{Event: "issue_comment.created", Actor: "dev"}))
	assert.Equal(t, model.Needs{Permissions: []string{"dev"}}, core.ReactionNeeds(cfg, &model.State{}, model.Input{Event: "workflow_dispatch", Actor: "dev", Pipeline: "ack"}))
	assert.True(t, core.ReactionNeeds(cfg, &model.State{}, model.Input{Event: "pull_request.opened", Actor: "dev"}).Empty())
}
