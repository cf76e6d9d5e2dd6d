package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v60/github"

	"github.com/org/pipeline-action/state"
)

// markRetryTries bounds the attempts of MarkRetry when another write replaced the list
// between its read and its write.
const markRetryTries = 3

// MarkRetry lists s in state.RetryFile on branch through REST (the contents API, whose
// commits GitHub signs as the app's): the sweep evaluates s once s.At has passed. It is for
// an event whose handling GitHub's GraphQL rate limit refused, REST's budget being another.
func (c *Client) MarkRetry(ctx context.Context, branch string, s state.RetrySubject) error {
	for try := 1; ; try++ {
		var list *state.RetryList
		var sha *string
		f, _, resp, err := c.rest.Repositories.GetContents(ctx, c.Owner, c.Repo, state.RetryFile, &github.RepositoryContentGetOptions{Ref: branch})
		switch {
		case err == nil && f != nil:
			text, err := f.GetContent()
			if err != nil {
				return fmt.Errorf("reading %s on %s: %w", state.RetryFile, branch, err)
			}
			if list, err = state.DecodeRetryList(text); err != nil {
				list = nil // replaced by a list the sweep can read
			}
			sha = f.SHA
		case resp != nil && resp.StatusCode == http.StatusNotFound:
		default:
			return fmt.Errorf("reading %s on %s: %w", state.RetryFile, branch, err)
		}
		text, err := list.With(s)
		if err != nil {
			return err
		}
		_, _, err = c.rest.Repositories.UpdateFile(ctx, c.Owner, c.Repo, state.RetryFile, &github.RepositoryContentFileOptions{
			Message: github.String(fmt.Sprintf("pipeline-action: #%d for the sweep after %s (GitHub's rate limit)", s.Number, s.At.UTC().Format("15:04 UTC"))),
			Content: []byte(text), SHA: sha, Branch: github.String(branch)})
		var er *github.ErrorResponse
		if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusConflict && try < markRetryTries {
			continue // another write replaced the list: read it again
		}
		if err != nil {
			return fmt.Errorf("writing %s on %s: %w", state.RetryFile, branch, err)
		}
		return nil
	}
}
