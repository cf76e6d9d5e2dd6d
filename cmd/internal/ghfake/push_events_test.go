package ghfake

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The state branch created, and a commit the action's token makes on it, are pushes GitHub sends: whether a
// workflow starts on it is the token's business (an app's starts every workflow on push).
// The event has the shape of a real delivery.
func TestStateBranchCommitIsAPush(t *testing.T) {
	s := widgets(t)
	main := headOf(s, "main")
	m := s.Mark(testRepo)
	out := gql(t, s, s.BotToken(), createRefMutationDoc, map[string]any{"input": map[string]any{
		"repositoryId": repoID(t, s), "name": "refs/heads/" + stateBranch, "oid": main,
	}})
	require.Nil(t, out["errors"])
	created := s.CausedSince(m, BotLogin)
	require.Len(t, created, 1)
	var c struct {
		Ref, Before string
		Created     bool
	}
	require.NoError(t, json.Unmarshal(created[0].Payload, &c))
	assert.Equal(t, "refs/heads/"+stateBranch, c.Ref)
	assert.True(t, c.Created)
	assert.Equal(t, "0000000000000000000000000000000000000000", c.Before)

	m = s.Mark(testRepo)
	out = gql(t, s, s.BotToken(), commitMutation, commitInput(stateBranch, main, map[string]string{"pr-7.json": `{"seq":1}`}))
	require.Nil(t, out["errors"])
	head := headOf(s, stateBranch)

	events := s.CausedSince(m, BotLogin)
	require.Len(t, events, 1)
	assertShape(t, events[0], "push/payload.json", [2]string{"push", ""})
	var p struct {
		Ref, Before, After string
		Pusher             struct{ Name string }
		HeadCommit         struct{ ID string } `json:"head_commit"`
	}
	require.NoError(t, json.Unmarshal(events[0].Payload, &p))
	assert.Equal(t, "refs/heads/"+stateBranch, p.Ref)
	assert.Equal(t, main, p.Before)
	assert.Equal(t, head, p.After)
	assert.Equal(t, head, p.HeadCommit.ID)
	assert.Equal(t, BotLogin, p.Pusher.Name)
	assert.Empty(t, s.CausedSince(m, "dev"), "the push is the action's")
}
