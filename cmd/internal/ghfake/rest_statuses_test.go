package ghfake

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fake refuses a commit status as GitHub does: a description over 140 characters, a
// state GitHub does not know, a commit that does not exist, and the 1001st status of a
// commit and context.
func TestCreateStatusIsAsStrictAsGitHub(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	head := s.PR(testRepo, 7).HeadSHA
	create := func(sha, state, context, desc string) (*http.Response, error) {
		_, resp, err := c.Repositories.CreateStatus(ctx, "acme", "widgets", sha,
			&github.RepoStatus{State: &state, Context: &context, Description: &desc, TargetURL: github.String("https://example.com/x")})
		if resp == nil {
			return nil, err
		}
		return resp.Response, err
	}
	refused := func(resp *http.Response, err error, message string) {
		t.Helper()
		var ge *github.ErrorResponse
		require.ErrorAs(t, err, &ge)
		assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
		assert.Contains(t, ge.Error(), message)
	}

	resp, err := create(head, "success", "pipeline-action/review", strings.Repeat("é", 141))
	refused(resp, err, "description is too long (maximum is 140 characters)")
	resp, err = create(head, "done", "pipeline-action/review", "ok")
	refused(resp, err, "state is not error, failure, pending or success")
	resp, err = create(strings.Repeat("0", 40), "success", "pipeline-action/review", "ok")
	refused(resp, err, "No commit found for SHA")
	latest, _ := s.HeadStatuses(testRepo, 7)
	assert.Empty(t, latest, "nothing refused was kept")

	_, err = create(head, "success", "pipeline-action/review", strings.Repeat("é", 140))
	require.NoError(t, err, "140 characters are accepted")
	latest, count := s.HeadStatuses(testRepo, 7)
	assert.Equal(t, StatusView{Context: "pipeline-action/review", State: "success", Description: strings.Repeat("é", 140),
		TargetURL: "https://example.com/x"}, latest["pipeline-action/review"])

	s.Mu.Lock()
	cm := s.MustRepo(testRepo).Commits[head]
	for range rest.MaxStatusesPerContext - count["pipeline-action/review"] {
		s.AddStatus(cm, "pipeline-action/review", "pending")
	}
	s.Mu.Unlock()
	resp, err = create(head, "success", "pipeline-action/review", "ok")
	refused(resp, err, "This SHA and context has reached the maximum number of statuses.")
	_, err = create(head, "success", "pipeline-action/other", "ok")
	require.NoError(t, err, "the limit is per context")
}
