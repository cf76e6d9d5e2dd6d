package ghapi_test

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPeople(t *testing.T) {
	fake, c := setup(t)
	fake.AddUser("alice", "maintain")
	fake.AddUser("rita", "read")
	fake.AddTeam("acme/maintainers", "bob", "carol")
	teams, p, err := c.People(t.Context(), model.Needs{
		Teams:       []string{"acme/maintainers", "acme/ghosts"},
		Permissions: []string{"alice", "rita", "stranger"},
	}, func(string, ...any) {})
	require.NoError(t, err)
	assert.Equal(t, []string{"bob", "carol"}, teams["acme/maintainers"])
	_, read := teams["acme/ghosts"]
	assert.True(t, read, "a team GitHub does not show is read as empty")
	assert.Equal(t, map[string]string{"alice": "maintain", "rita": "read", "stranger": "none"}, p.Permissions)
	assert.True(t, p.Has("alice", "write"))
	assert.False(t, p.Has("rita", "triage"))
	assert.Equal(t, map[string]int{"teams/list-members-in-org": 2, "repos/get-collaborator-permission-level": 3}, fake.Stats())
}

func TestPerformRequestReviewers(t *testing.T) {
	fake, c := setup(t)
	fake.AddUser("alice", "write")
	openPR(fake)
	o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectRequestReviewers, Number: 7,
		Reviewers: []string{"alice"}, Teams: []string{"maintainers"}})
	assert.Equal(t, model.Outcome{Key: "k"}, o)
	assert.Equal(t, []string{"alice", "team:maintainers"}, fake.PR(repoName, 7).Requested)

	o = c.Perform(t.Context(), model.Effect{Key: "k2", Kind: model.EffectRequestReviewers, Number: 7, Reviewers: []string{"dev"}})
	assert.Contains(t, o.Err, "request_reviewers refused (422)")
	assert.True(t, o.Permanent)
	o = c.Perform(t.Context(), model.Effect{Key: "k3", Kind: model.EffectRequestReviewers, Number: 7, Reviewers: []string{"nobody"}})
	assert.Contains(t, o.Err, "only be requested from collaborators")
}
