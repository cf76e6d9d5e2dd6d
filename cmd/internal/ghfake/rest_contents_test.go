package ghfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The contents API creates a file in a commit of the token's identity that GitHub signs,
// replaces it only with its blob's sha, and refuses a replacement without it (422) or with
// another (409), as GitHub does.
func TestContentsAPIWritesAFileAsGitHubDoes(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	opts := func(text string, sha *string) *github.RepositoryContentFileOptions {
		return &github.RepositoryContentFileOptions{Message: github.String("note"), Content: []byte(text), SHA: sha, Branch: github.String("main")}
	}
	_, resp, err := c.Repositories.UpdateFile(ctx, "acme", "widgets", "notes/a.txt", opts("one", nil))
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "one", s.BranchFiles(testRepo, "main")["notes/a.txt"])
	_, resp, err = c.Repositories.UpdateFile(ctx, "acme", "widgets", "notes/a.txt", opts("two", nil))
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, "a replacement names the blob it replaces")
	_, resp, err = c.Repositories.UpdateFile(ctx, "acme", "widgets", "notes/a.txt", opts("two", github.String(world.BlobOID("other"))))
	require.Error(t, err)
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "another blob than the file's")
	_, resp, err = c.Repositories.UpdateFile(ctx, "acme", "widgets", "notes/a.txt", opts("two", github.String(world.BlobOID("one"))))
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "two", s.BranchFiles(testRepo, "main")["notes/a.txt"])
}
