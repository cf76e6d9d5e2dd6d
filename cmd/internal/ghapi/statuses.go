package ghapi

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"
)

// StatusPrefix begins the context of every commit status the action writes
// (`pipeline-action/<pipeline>`, settings.status_check). Such statuses are the action's
// own: they are kept out of the facts' checks, so that no gate of the action waits on a
// status the action itself writes.
const StatusPrefix = "pipeline-action/"

// MaxStatusDescription is the longest description GitHub takes for a commit status.
const MaxStatusDescription = 140

// IsOwnStatus reports whether context is one the action writes.
func IsOwnStatus(context string) bool { return strings.HasPrefix(context, StatusPrefix) }

// ownStatuses are the action's own commit statuses on the head as the rollup shows them
// (the latest of each context), by context, in lower case (pending, success, failure,
// error), from every page of the rollup's contexts.
func ownStatuses(pr *prFields) map[string]string {
	out := map[string]string{}
	for _, n := range pr.Commits.Nodes {
		if n.Commit.Oid != pr.HeadRefOid || n.Commit.StatusCheckRollup == nil {
			continue
		}
		for _, cx := range n.Commit.StatusCheckRollup.Contexts.Nodes {
			if cx.Typename == "StatusContext" && IsOwnStatus(cx.StatusContext.Context) {
				out[cx.StatusContext.Context] = strings.ToLower(cx.StatusContext.State)
			}
		}
	}
	return out
}

// Status is a commit status to write.
type Status struct {
	SHA, Context, State string // state: pending, success, failure or error
	Description         string // cut to MaxStatusDescription characters
	TargetURL           string // "": none
}

// CreateStatus writes a commit status on s.SHA.
// https://docs.github.com/en/rest/commits/statuses#create-a-commit-status
func (c *Client) CreateStatus(ctx context.Context, s Status) error {
	desc := s.Description
	if r := []rune(desc); len(r) > MaxStatusDescription {
		desc = string(r[:MaxStatusDescription-1]) + "…"
	}
	in := &github.RepoStatus{State: &s.State, Context: &s.Context, Description: &desc}
	if s.TargetURL != "" {
		in.TargetURL = &s.TargetURL
	}
	if _, _, err := c.rest.Repositories.CreateStatus(ctx, c.Owner, c.Repo, s.SHA, in); err != nil {
		return fmt.Errorf("writing the commit status %s on %s: %w", s.Context, s.SHA[:min(7, len(s.SHA))], err)
	}
	return nil
}
