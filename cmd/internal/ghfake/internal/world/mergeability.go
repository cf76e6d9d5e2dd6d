package world

import (
	"fmt"
	"net/http"
	"slices"
)

// What GitHub computes late and what it enforces on a merge: mergeable is UNKNOWN for the
// first reads after the head or the base moves (SetUnknownReads), mergeStateStatus says why a
// pull request cannot merge, and branch protection (SetProtection) refuses a merge GitHub
// refuses, with GitHub's status and message.

// Computing reports whether GitHub is still computing pr's mergeability for request req (a
// GraphQL read counts once per request); a nil req (REST and webhook payloads) only looks. The
// caller holds Mu.
func (s *Rules) Computing(req any, pr *Issue) bool {
	c := &pr.Calc
	key := pr.HeadSHA + ".." + s.BaseHead(pr)
	if c.Key != key {
		*c = MergeCalc{Key: key, Left: pr.Repo.Settings.UnknownReads}
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

func (s *Rules) BaseHead(pr *Issue) string {
	if b := pr.Repo.Branches[pr.Base]; b != nil {
		return b.Head
	}
	return ""
}

// MergeableFor is GraphQL's PullRequest.mergeable as request req reads it.
func (s *Rules) MergeableFor(req any, pr *Issue) string {
	m := MergeableNow(pr) // a change both sides made differently conflicts
	if m == "MERGEABLE" && pr.State == "open" && s.Computing(req, pr) {
		return "UNKNOWN"
	}
	return m
}

// MergeStateStatus is GraphQL's PullRequest.mergeStateStatus as request req of viewer reads
// it ("" for no viewer: a webhook payload): BLOCKED for a rule the merge does not meet yet,
// and for a viewer branch protection does not let push into the base.
func (s *Rules) MergeStateStatus(req any, pr *Issue, viewer string) string {
	switch m := s.MergeableFor(req, pr); {
	case pr.State != "open" || m == "UNKNOWN":
		return "UNKNOWN"
	case pr.Draft:
		return "DRAFT"
	case m == "CONFLICTING":
		return "DIRTY"
	}
	p := pr.Repo.Settings.Protection[pr.Base]
	if p != nil && (s.MissingApprovals(pr, p) > 0 || s.UnmetCheck(pr, p) != "" || s.peopleRefusal(pr, p, viewer) != "") {
		return "BLOCKED"
	}
	if p != nil && p.Strict && s.Behind(pr) {
		return "BEHIND"
	}
	if c := pr.Repo.Commits[pr.HeadSHA]; c != nil && RollupState(RollupContexts(c)) != "SUCCESS" {
		return "UNSTABLE"
	}
	return "CLEAN"
}

// MissingApprovals is how many more approving reviews p requires: the latest review of each
// person with write access counts when it approves.
func (s *Rules) MissingApprovals(pr *Issue, p *Protection) int {
	return max(0, p.RequiredReviews-len(s.approvers(pr)))
}

// UnmetCheck is GitHub's sentence for the first required check that has not succeeded on the
// head, "" when all have.
func (s *Rules) UnmetCheck(pr *Issue, p *Protection) string {
	c := pr.Repo.Commits[pr.HeadSHA]
	for _, name := range p.RequiredChecks {
		state := "EXPECTED"
		if c != nil {
			for _, ctx := range RollupContexts(c) {
				if ContextName(ctx) == name {
					state = ContextState(ctx)
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

func ContextName(v any) string {
	switch x := v.(type) {
	case *CheckRun:
		return x.Name
	case *Status:
		return x.Context
	}
	return ""
}

// Behind reports whether the head lacks the base branch's head commit.
func (s *Rules) Behind(pr *Issue) bool {
	base := s.BaseHead(pr)
	return base != "" && !pr.HeadRepository().Ancestors(pr.HeadSHA)[base] && !pr.Repo.Ancestors(pr.HeadSHA)[base]
}

// MergeRefusal is GitHub's answer to PUT .../merge with method on pr by login when its base
// branch's protection or the repository's settings refuse it; 0 when they allow it. The
// caller holds Mu.
func (s *Rules) MergeRefusal(req any, pr *Issue, method, login string) (int, string) {
	p := pr.Repo.Settings.Protection[pr.Base]
	if p == nil {
		return 0, ""
	}
	switch {
	case p.MergeQueue:
		return http.StatusMethodNotAllowed, "Changes must be made through the merge queue"
	case len(p.MergeMethods) > 0 && !slices.Contains(p.MergeMethods, method):
		return http.StatusMethodNotAllowed, MethodRefusal(method)
	case p.LinearHistory && method == "merge":
		return http.StatusMethodNotAllowed, LinearRefusal
	case s.MissingApprovals(pr, p) > 0:
		n := p.RequiredReviews
		return http.StatusMethodNotAllowed, fmt.Sprintf("At least %d approving %s required by reviewers with write access.", n, Plural(n, "review is", "reviews are"))
	case s.peopleRefusal(pr, p, login) != "":
		// Before the checks and the base: what only people can lift is said at once.
		return http.StatusMethodNotAllowed, s.peopleRefusal(pr, p, login)
	case s.UnmetCheck(pr, p) != "":
		return http.StatusMethodNotAllowed, s.UnmetCheck(pr, p)
	case p.Strict && s.Behind(pr):
		return http.StatusMethodNotAllowed, "Head branch is not up to date with the base branch"
	}
	return 0, ""
}

// peopleRefusal is GitHub's refusal of a merge of pr by login for a rule of p only people
// can meet: a code owner's review, a resolved conversation, the right to push
// ("" login: nobody's in particular). "" when p's rules allow it.
func (s *Rules) peopleRefusal(pr *Issue, p *Protection, login string) string {
	switch {
	case p.CodeOwnerReviews && s.MissingCodeOwners(pr) != "":
		return codeOwnerRefusal(s.MissingCodeOwners(pr))
	case p.ConversationResolution && UnresolvedConversations(pr) > 0:
		return ConversationRefusal
	case login != "" && !s.MayPush(p, login):
		return PushRefusal
	}
	return ""
}

func MethodRefusal(method string) string {
	what := map[string]string{"merge": "Merge commits", "squash": "Squash merges", "rebase": "Rebase merges"}[method]
	return what + " are not allowed on this repository."
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// UnknownRefusal is GitHub's answer to a merge while it computes mergeability.
const UnknownRefusal = "Pull Request is not mergeable"

// MergeBlocked is the refusal of PUT .../merge on pr before protection is looked at: the pull
// request is not open, or GitHub has not computed (or found) it mergeable.
func (s *Rules) MergeBlocked(req any, pr *Issue) bool {
	return pr.Merged || pr.State != "open" || pr.Draft || s.MergeableFor(req, pr) != "MERGEABLE"
}

func (s *Rules) RefusesMerge(req any, pr *Issue, method, login string) bool {
	code, _ := s.MergeRefusal(req, pr, method, login)
	return code != 0
}
