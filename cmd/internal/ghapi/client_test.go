package ghapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
)

// repoName is the repository every adapter test talks to.
const repoName = "acme/widgets"

// configPath is where the adapter tests keep the pipelines file.
const configPath = ".github/pipelines.yaml"

// setup starts a fake GitHub holding acme/widgets (default branch main) and returns it with a
// client that talks to it over HTTP as the action's identity.
func setup(t *testing.T) (*ghfake.Server, *ghapi.Client) {
	t.Helper()
	fake := faketest.New(t)
	fake.AddRepo(repoName, "main")
	return fake, newClient(t, fake)
}

func newClient(t *testing.T, fake *ghfake.Server) *ghapi.Client {
	t.Helper()
	c, err := ghapi.New(ghapi.Options{
		Token:      fake.BotToken(),
		RESTURL:    fake.URL + "/api/v3",
		GraphQLURL: fake.URL + "/api/graphql",
		Repository: repoName,
	})
	require.NoError(t, err)
	return c
}

// assertDocumented checks that every request the fake saw was a documented operation it answered
// without complaint.
func assertDocumented(t *testing.T, fake *ghfake.Server) {
	t.Helper()
	assert.Empty(t, fake.Unexpected(), "requests GitHub would refuse")
	for _, c := range fake.Calls() {
		assert.NotEqual(t, "unknown", c.Kind, "%s %s is not a documented operation", c.Method, c.Path)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name       string
		repository string
		wantErr    string
	}{
		{name: "owner and name", repository: "acme/widgets"},
		{name: "no slash", repository: "widgets", wantErr: `repository "widgets" is not owner/name`},
		{name: "no owner", repository: "/widgets", wantErr: `repository "/widgets" is not owner/name`},
		{name: "no name", repository: "acme/", wantErr: `repository "acme/" is not owner/name`},
		{name: "empty", repository: "", wantErr: `repository "" is not owner/name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ghapi.New(ghapi.Options{Token: "t", Repository: tt.repository})
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				assert.Nil(t, c)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "acme", c.Owner)
			assert.Equal(t, "widgets", c.Repo)
			assert.Empty(t, c.Calls(), "New makes no request")
		})
	}
}
