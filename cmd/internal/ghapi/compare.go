package ghapi

import (
	"context"
	"fmt"
)

// BehindBy returns how many commits of branch base the commit head does not hold (0: head
// contains base's head), comparing base...head. A pull request's head commit is in its base
// repository's network even when it lives in a fork, so its SHA compares there.
// https://docs.github.com/en/rest/commits/commits#compare-two-commits
func (c *Client) BehindBy(ctx context.Context, base, head string) (int, error) {
	cmp, _, err := c.rest.Repositories.CompareCommits(ctx, c.Owner, c.Repo, base, head, nil)
	if err != nil {
		return 0, fmt.Errorf("comparing %s with %s in %s/%s: %w", head, base, c.Owner, c.Repo, err)
	}
	return cmp.GetBehindBy(), nil
}
