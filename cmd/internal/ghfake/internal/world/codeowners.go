package world

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// The branch protection rules only people can meet: code owners' reviews (from CODEOWNERS on
// the base branch), resolved review conversations, and who may push into the branch.

// codeOwnersPaths are where GitHub looks for CODEOWNERS, in order; the first found counts.
var codeOwnersPaths = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

// codeOwnerRule is one line of CODEOWNERS: a gitignore-like pattern and its owners
// (`@login`, `@org/team`; e-mail addresses are kept but match no one in the fake).
type codeOwnerRule struct {
	pattern string
	owners  []string
}

// codeOwnerRules reads CODEOWNERS from the base branch of pr; none when there is none.
func codeOwnerRules(pr *Issue) []codeOwnerRule {
	b := pr.Repo.Branches[pr.Base]
	if b == nil {
		return nil
	}
	for _, p := range codeOwnersPaths {
		bl := b.Files[p]
		if bl == nil {
			continue
		}
		var rules []codeOwnerRule
		for _, line := range strings.Split(bl.Text, "\n") {
			if i := strings.Index(line, "#"); i >= 0 {
				line = line[:i]
			}
			if f := strings.Fields(line); len(f) > 0 {
				rules = append(rules, codeOwnerRule{pattern: f[0], owners: f[1:]})
			}
		}
		return rules
	}
	return nil
}

// ownersOf is who owns file: the owners of the last rule that matches it, as GitHub reads
// CODEOWNERS.
func ownersOf(rules []codeOwnerRule, file string) []string {
	var owners []string
	for _, r := range rules {
		if codeOwnerMatch(r.pattern, file) {
			owners = r.owners
		}
	}
	return owners
}

// codeOwnerMatch matches a CODEOWNERS pattern as gitignore does: a pattern with a slash
// before its end is anchored at the root, else it matches at any depth; `**` spans
// directories; a pattern that names a directory owns everything below it.
func codeOwnerMatch(pattern, file string) bool {
	anchored := strings.Contains(strings.TrimSuffix(pattern, "/"), "/")
	p := strings.Trim(pattern, "/")
	if p == "" {
		return false
	}
	if !anchored {
		p = "**/" + p
	}
	segs := strings.Split(file, "/")
	for n := 1; n <= len(segs); n++ { // the file itself or a directory above it
		if globSegs(strings.Split(p, "/"), segs[:n]) && (n == len(segs) || !strings.HasSuffix(pattern, "*")) {
			return true
		}
	}
	return false
}

func globSegs(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if globSegs(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && globSegs(pat[1:], name[1:])
}

// MissingCodeOwners names the code owners still to approve pr, "" when every changed file
// with owners has an approving review by one of them (their latest review, with write
// access, not the author's).
func (s *Rules) MissingCodeOwners(pr *Issue) string {
	rules := codeOwnerRules(pr)
	if len(rules) == 0 {
		return ""
	}
	approvers := s.approvers(pr)
	var waiting []string
	for _, f := range pr.Files {
		owners := ownersOf(rules, f)
		if len(owners) == 0 || slices.ContainsFunc(approvers, func(u string) bool {
			return slices.ContainsFunc(owners, func(o string) bool { return s.isOwner(o, u) })
		}) {
			continue
		}
		for _, o := range owners {
			// GitHub names a person by login and a team by @org/team.
			if name := strings.TrimPrefix(o, "@"); strings.HasPrefix(o, "@") && !strings.Contains(name, "/") {
				o = name
			}
			if !slices.Contains(waiting, o) {
				waiting = append(waiting, o)
			}
		}
	}
	return strings.Join(waiting, ", ")
}

// approvers are the people whose latest review of pr approves it and who have write access,
// the author aside.
func (s *Rules) approvers(pr *Issue) []string {
	latest := map[string]string{}
	var order []string
	for _, rv := range pr.Reviews {
		if rv.State == "COMMENTED" {
			continue
		}
		if _, ok := latest[rv.User]; !ok {
			order = append(order, rv.User)
		}
		latest[rv.User] = rv.State
	}
	var out []string
	for _, u := range order {
		if latest[u] == "APPROVED" && CanPush(s.PermissionOf(u)) && u != pr.Author {
			out = append(out, u)
		}
	}
	return out
}

// UnresolvedConversations counts the review conversations of pr nobody resolved.
func UnresolvedConversations(pr *Issue) int {
	n := 0
	for _, rv := range pr.Reviews {
		if rv.Conversation && !rv.Resolved {
			n++
		}
	}
	return n
}

// Refusals of the rules above, as GitHub words them on a merge (405).
const (
	ConversationRefusal = "A conversation must be resolved before this pull request can be merged."
	LinearRefusal       = "Merge commits are not allowed on this branch."
	PushRefusal         = "You're not authorized to push to this branch. Visit https://docs.github.com/articles/about-protected-branches for more information."
)

func codeOwnerRefusal(owners string) string {
	return fmt.Sprintf("Waiting on code owner review from %s.", owners)
}
