package ghapi

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/state"
)

func TestCommitAuthor(t *testing.T) {
	type author = struct {
		Name  string
		Email string
		User  *struct{ Login string }
	}
	user := func(login string) *struct{ Login string } { return &struct{ Login string }{login} }
	for _, tc := range []struct {
		name string
		a    *author
		want string
	}{
		{"an account", &author{Name: "Alice", Email: "a@example.com", User: user("alice")}, "alice"},
		{"a bot served as a User", &author{Name: "github-actions[bot]", User: user("github-actions[bot]")}, "github-actions[bot]"},
		{"a bot without a User", &author{Name: "github-actions[bot]", Email: "41898282+github-actions[bot]@users.noreply.github.com"}, "github-actions[bot]"},
		{"a bot's name with another address", &author{Name: "github-actions[bot]", Email: "mallory@example.com"}, ""},
		{"a person's name with a bot's address", &author{Name: "mallory", Email: "41898282+github-actions[bot]@users.noreply.github.com"}, ""},
		{"no author", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, commitAuthor(stateCommit{Author: tc.a}))
		})
	}
}

func TestClassifyWrite(t *testing.T) {
	for msg, want := range map[string]error{
		`Expected branch to point to "abc" but it did not.  Pull and try again.`: state.ErrConflict,
		"Branch not found": state.ErrConflict,
		`A ref named "refs/heads/pipeline-action/state" already exists in the repository.`: state.ErrConflict,
		"Repository rule violations found\n\nCannot update this protected ref.\n\n":        state.ErrForbidden,
		"Resource not accessible by integration":                                           state.ErrForbidden,
	} {
		assert.ErrorIs(t, classifyWrite(errors.New(msg)), want, msg)
	}
	// A rate limit, a server error and a 403 or 422 that names no rule pass: they are
	// neither a lost race nor a branch the action may never write.
	for _, other := range []error{
		errors.New("non-200 OK status code: 502 Bad Gateway"),
		errors.New("non-200 OK status code: 403 Forbidden body: \"\""),
		errors.New("non-200 OK status code: 422 Unprocessable Entity body: \"\""),
		fmt.Errorf("Post \"https://api.github.com/graphql\": %w", &RateLimitError{Limit: "GitHub's rate limit (API rate limit exceeded for installation ID 1.)", Why: "not waiting 1h0m1s for it (at most 1m0s)"}),
		errors.New("API rate limit already exceeded for installation ID 1."),
	} {
		got := classifyWrite(other)
		assert.Equal(t, other, got)
		assert.NotErrorIs(t, got, state.ErrForbidden)
	}
}
