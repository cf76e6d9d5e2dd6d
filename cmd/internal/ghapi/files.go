package ghapi

import (
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"
)

// MaxListedFiles is how many changed files GitHub lists for a pull request at most.
// https://docs.github.com/en/rest/pulls/pulls#list-pull-requests-files
const MaxListedFiles = 3000

// ChangedFiles returns the paths pull request number changes, 100 a page, and whether
// GitHub listed only the first MaxListedFiles of them. A renamed file counts under its
// old path too: a condition on where code was is a condition on the change.
func (c *Client) ChangedFiles(ctx context.Context, number int) (paths []string, truncated bool, err error) {
	opt := &github.ListOptions{PerPage: 100}
	listed := 0
	for page := 0; ; page++ {
		if page >= MaxListedFiles/100 {
			return paths, true, nil
		}
		files, resp, err := c.rest.PullRequests.ListFiles(ctx, c.Owner, c.Repo, number, opt)
		if err != nil {
			return nil, false, fmt.Errorf("listing the files of pull request #%d in %s/%s: %w", number, c.Owner, c.Repo, err)
		}
		listed += len(files)
		for _, f := range files {
			paths = append(paths, f.GetFilename())
			if prev := f.GetPreviousFilename(); prev != "" {
				paths = append(paths, prev)
			}
		}
		if resp.NextPage == 0 {
			return paths, listed >= MaxListedFiles, nil
		}
		opt.Page = resp.NextPage
	}
}
