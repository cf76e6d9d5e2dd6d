package ghfake

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// What GitHub computes late and what it enforces on a merge: mergeable is UNKNOWN for the
// first reads after the head or the base moves (SetUnknownReads), mergeStateStatus says why a
// pull request cannot merge, and branch protection (SetProtection) refuses a merge GitHub
// refuses, with GitHub's status and message.

// computing reports whether GitHub is still computing pr's mergeability for request req (a
// GraphQL read counts once per request); a nil req (REST and webhook payloads) only looks. The
// caller holds s.mu.
func (s *Server) computing(req any, pr *issue) bool {
	c := &pr.Calc
	key := pr.HeadSHA + ".." + s.baseHead(pr)
	if c.Key != key {
		*c = mergeCalc{Key: key, Left: pr.Repo.Settings.UnknownReads}
	}
	if req == nil {
		return c.Left > 0
	}
	if c.LastReq == req {
		return c.Unknown
	}
	c.LastReq, c.Unknown = req, c.Left > 0
	if c.Left > 0 {
		c.Left--
	}
	return c.Unknown
}

func (s *Server) baseHead(pr *issue) string {
	if b := pr.Repo.Branches[pr.Base]; b != nil {
		return b.Head
	}
	return ""
}

// mergeableFor is GraphQL's PullRequest.mergeable as request req reads it.
func (s *Server) mergeableFor(req any, pr *issue) string {
	m := world.MergeableNow(pr) // merge3.go: a change both sides made differently conflicts
	if m == "MERGEABLE" && pr.State == "open" && s.computing(req, pr) {
		return "UNKNOWN"
	}
	return m
}

// mergeStateStatus is GraphQL's PullRequest.mergeStateStatus as request req reads it.
func (s *Server) mergeStateStatus(req any, pr *issue) string {
	switch m := s.mergeableFor(req, pr); {
	case pr.State != "open" || m == "UNKNOWN":
		return "UNKNOWN"
	case pr.Draft:
		return "DRAFT"
	case m == "CONFLICTING":
		return "DIRTY"
	}
	p := pr.Repo.Settings.Protection[pr.Base]
	if p != nil && (s.missingApprovals(pr, p) > 0 || s.unmetCheck(pr, p) != "") {
		return "BLOCKED"
	}
	if p != nil && p.Strict && s.behind(pr) {
		return "BEHIND"
	}
	if c := pr.Repo.Commits[pr.HeadSHA]; c != nil && rollupState(rollupContexts(c)) != "SUCCESS" {
		return "UNSTABLE"
	}
	return "CLEAN"
}

// missingApprovals is how many more approving reviews p requires: the latest review of each
// person with write access counts when it approves.
func (s *Server) missingApprovals(pr *issue, p *Protection) int {
	latest := map[string]string{}
	for _, rv := range pr.Reviews {
		if rv.State != "COMMENTED" {
			latest[rv.User] = rv.State
		}
	}
	n := 0
	for u, st := range latest {
		if st == "APPROVED" && world.CanPush(s.PermissionOf(u)) && u != pr.Author {
			n++
		}
	}
	return max(0, p.RequiredReviews-n)
}

// unmetCheck is GitHub's sentence for the first required check that has not succeeded on the
// head, "" when all have.
func (s *Server) unmetCheck(pr *issue, p *Protection) string {
	c := pr.Repo.Commits[pr.HeadSHA]
	for _, name := range p.RequiredChecks {
		state := "EXPECTED"
		if c != nil {
			for _, ctx := range rollupContexts(c) {
				if contextName(ctx) == name {
					state = contextState(ctx)
				}
			}
		}
		switch state {
		case "SUCCESS":
			continue
		case "EXPECTED":
			return fmt.Sprintf("Required status check %q is expected.", name)
		case "PENDING":
			return fmt.Sprintf("Required status check %q is in progress.", name)
		}
		return fmt.Sprintf("Required status check %q is failing.", name)
	}
	return ""
}

func contextName(v any) string {
	switch x := v.(type) {
	case *checkRun:
		return x.Name
	case *status:
		return x.Context
	}
	return ""
}

// behind reports whether the head lacks the base branch's head commit.
func (s *Server) behind(pr *issue) bool {
	base := s.baseHead(pr)
	return base != "" && !ancestors(pr.HeadRepository(), pr.HeadSHA)[base] && !ancestors(pr.Repo, pr.HeadSHA)[base]
}

// mergeRefusal is GitHub's answer to PUT .../merge with method on pr when its base branch's
// protection or the repository's settings refuse it; 0 when they allow it. The caller holds
// s.mu.
func (s *Server) mergeRefusal(req any, pr *issue, method string) (int, string) {
	p := pr.Repo.Settings.Protection[pr.Base]
	if p == nil {
		return 0, ""
	}
	switch {
	case p.MergeQueue:
		return http.StatusMethodNotAllowed, "Changes must be made through the merge queue"
	case len(p.MergeMethods) > 0 && !slices.Contains(p.MergeMethods, method):
		return http.StatusMethodNotAllowed, methodRefusal(method)
	case s.missingApprovals(pr, p) > 0:
		n := p.RequiredReviews
		return http.StatusMethodNotAllowed, fmt.Sprintf("At least %d approving %s required by reviewers with write access.", n, plural(n, "review is", "reviews are"))
	case s.unmetCheck(pr, p) != "":
		return http.StatusMethodNotAllowed, s.unmetCheck(pr, p)
	case p.Strict && s.behind(pr):
		return http.StatusMethodNotAllowed, "Head branch is not up to date with the base branch"
	}
	return 0, ""
}

func methodRefusal(method string) string {
	what := map[string]string{"merge": "Merge commits", "squash": "Squash merges", "rebase": "Rebase merges"}[method]
	return what + " are not allowed on this repository."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// unknownRefusal is GitHub's answer to a merge while it computes mergeability.
const unknownRefusal = "Pull Request is not mergeable"

// mergeBlocked is the refusal of PUT .../merge on pr before protection is looked at: the pull
// request is not open, or GitHub has not computed (or found) it mergeable.
func (s *Server) mergeBlocked(req any, pr *issue) bool {
	return pr.Merged || pr.State != "open" || pr.Draft || s.mergeableFor(req, pr) != "MERGEABLE"
}

func (s *Server) refusesMerge(req any, pr *issue, method string) bool {
	code, _ := s.mergeRefusal(req, pr, method)
	return code != 0
}

// pullsUpdateBranch: https://docs.github.com/rest/pulls/pulls#update-a-pull-request-branch
// It merges the base branch's head into the head branch with GitHub's signed merge commit.
func pullsUpdateBranch(s *Server, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, notFound()
	}
	var in struct {
		ExpectedHeadSHA string `json:"expected_head_sha"`
	}
	if len(c.body) > 0 {
		if code, body, ok := c.decode(&in); !ok {
			return code, body
		}
	}
	switch {
	case !world.CanPush(s.PermissionOf(c.login)):
		return http.StatusForbidden, errorBody("Resource not accessible by integration")
	case pr.State != "open":
		return http.StatusUnprocessableEntity, errorBody("Pull request is not open.")
	case in.ExpectedHeadSHA != "" && in.ExpectedHeadSHA != pr.HeadSHA:
		return http.StatusUnprocessableEntity, errorBody("expected head sha didn't match current head ref.")
	case !s.behind(pr):
		return http.StatusUnprocessableEntity, errorBody("There are no new commits on the base branch.")
	case world.MergeableNow(pr) == "CONFLICTING":
		return http.StatusUnprocessableEntity, errorBody("merge conflict between base and head")
	}
	s.updateBranch(c.repo, pr, c.login)
	return http.StatusAccepted, obj{"message": "Updating pull request branch.",
		"url": fmt.Sprintf("%s/%s/pull/%d", htmlBase, c.repo.FullName(), pr.Number)}
}
