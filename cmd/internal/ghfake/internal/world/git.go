package world

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// WebFlow is the account GitHub signs and commits as for commits made through the web
// interface or the API (createCommitOnBranch, merges): committer "GitHub
// <noreply@github.com>", signer web-flow.
const WebFlow = "web-flow"

// GitActor is a commit's author or committer as git records it: a name and an email, and
// the account GitHub matches the email with (login; "" for none).
type GitActor struct {
	Name, Email, Login string
	Date               time.Time
}

// AccountActor is the git identity GitHub gives an account's commits: its login as name and
// its noreply address, as the web interface and createCommitOnBranch write them.
func AccountActor(login string, at time.Time) GitActor {
	if login == WebFlow {
		return GitActor{Name: "GitHub", Email: "noreply@github.com", Login: WebFlow, Date: at}
	}
	return GitActor{Name: login, Email: fmt.Sprintf("%d+%s@users.noreply.github.com", StableID(login), login), Login: login, Date: at}
}

// Authored sets who made c: pushed by login (unsigned, committed by the author), or, with
// viaWeb, made by GitHub on login's behalf through the web or the API: committed and signed
// by web-flow. The caller holds Mu.
func (c *Commit) Authored(login string, viaWeb bool) *Commit {
	c.Author, c.Committer = AccountActor(login, c.Date), AccountActor(login, c.Date)
	c.ViaWeb, c.Sig = viaWeb, ""
	if viaWeb {
		c.Committer, c.Sig = AccountActor(WebFlow, c.Date), WebFlow
	}
	return c
}

// RefNodeID is the node id of branch name's ref in r.
func RefNodeID(r *Repo, name string) string {
	return NodeID("Ref", StableID(r.FullName()+":"+name))
}

// Rule messages of a ruleset that restricts creations and updates, as GitHub words them in
// "Repository rule violations found" refusals (git push, REST and GraphQL alike).
const (
	RuleCreation = "Cannot create ref due to creations being restricted."
	RuleUpdate   = "Cannot update this protected ref."
)

// RuleViolation is the message of a refusal by a ruleset: "Repository rule violations
// found", a blank line, the rule's message and a blank line, as REST's 422 bodies carry it.
func RuleViolation(rule string) string {
	return "Repository rule violations found\n\n" + rule + "\n\n"
}

// RefusedBy is the rule that refuses creating (exists false) or updating branch name of r,
// "" when none does. The caller holds Mu.
func (r *Repo) RefusedBy(name string, exists bool) string {
	if r.Restricted[name] == 0 {
		return ""
	}
	if exists {
		return RuleUpdate
	}
	return RuleCreation
}

// Payload is the commit object as git hashes it, without its signature: what a signature
// signs.
func (c *Commit) Payload() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s\n", FakeSHA("tree", c.SHA))
	for _, p := range c.Parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	for _, x := range []struct {
		role string
		a    GitActor
	}{{"author", c.Author}, {"committer", c.Committer}} {
		fmt.Fprintf(&b, "%s %s <%s> %d +0000\n", x.role, x.a.Name, x.a.Email, x.a.Date.Unix())
	}
	fmt.Fprintf(&b, "\n%s\n", c.Message)
	return b.String()
}

// BranchRules are the rules that apply to branch name of r, as "Get rules for a branch"
// lists them: a restricting ruleset's "creation" and "update" rules (RestrictBranch), none
// otherwise. The branch need not exist. The caller holds Mu.
func (r *Repo) BranchRules(name string) []any {
	rules := []any{}
	if id := r.Restricted[name]; id != 0 {
		for _, typ := range []string{"creation", "update"} {
			rules = append(rules, map[string]any{"type": typ, "ruleset_source_type": "Repository", "ruleset_source": r.FullName(), "ruleset_id": id})
		}
	}
	return rules
}

// ResolveCommit finds a commit by SHA, branch of r, or owner:branch of a fork of r.
func (s *Git) ResolveCommit(r *Repo, ref string) *Commit {
	if cm := r.Commits[ref]; cm != nil {
		return cm
	}
	hr := r
	if owner, branch, ok := strings.Cut(ref, ":"); ok {
		hr = s.Repos[owner+"/"+r.Name]
		if hr == nil {
			return nil
		}
		ref = branch
	}
	if b := hr.Branches[ref]; b != nil {
		return r.Commits[b.Head]
	}
	return nil
}

// MaxBlobText is the most bytes of a blob's text GraphQL gives: a longer blob's text is
// cut there and its isTruncated is true.
const MaxBlobText = 512_000

// BlobText is the text GraphQL gives of bl: at most MaxBlobText bytes, cut at a character's
// start, and whether it was cut.
func BlobText(bl *Blob) (string, bool) {
	if len(bl.Text) <= MaxBlobText {
		return bl.Text, false
	}
	n := MaxBlobText
	for n > 0 && !utf8.RuneStart(bl.Text[n]) {
		n--
	}
	return bl.Text[:n], true
}
