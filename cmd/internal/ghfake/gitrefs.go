package ghfake

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// webFlow is the account GitHub signs and commits as for commits made through the web
// interface or the API (createCommitOnBranch, merges): committer "GitHub
// <noreply@github.com>", signer web-flow.
const WebFlow = "web-flow"

// gitActor is a commit's author or committer as git records it: a name and an email, and
// the account GitHub matches the email with (login; "" for none).
type gitActor struct {
	Name, Email, Login string
	Date               time.Time
}

// accountActor is the git identity GitHub gives an account's commits: its login as name and
// its noreply address, as the web interface and createCommitOnBranch write them.
func AccountActor(login string, at time.Time) gitActor {
	if login == WebFlow {
		return gitActor{Name: "GitHub", Email: "noreply@github.com", Login: WebFlow, Date: at}
	}
	return gitActor{Name: login, Email: fmt.Sprintf("%d+%s@users.noreply.github.com", StableID(login), login), Login: login, Date: at}
}

// authored sets who made c: pushed by login (unsigned, committed by the author), or, with
// viaWeb, made by GitHub on login's behalf through the web or the API: committed and signed
// by web-flow. The caller holds s.mu.
func (c *commit) Authored(login string, viaWeb bool) *commit {
	c.Author, c.Committer = AccountActor(login, c.Date), AccountActor(login, c.Date)
	c.ViaWeb, c.Sig = viaWeb, ""
	if viaWeb {
		c.Committer, c.Sig = AccountActor(WebFlow, c.Date), WebFlow
	}
	return c
}

// refNodeID is the node id of branch name's ref in r.
func RefNodeID(r *repo, name string) string {
	return NodeID("Ref", StableID(r.FullName()+":"+name))
}

// signature is a commit's signature, served as a GpgSignature (GitHub's web-flow key is a
// GPG key).
type signature struct{ c *commit }

// Rule messages of a ruleset that restricts creations and updates, as GitHub words them in
// "Repository rule violations found" refusals (git push, REST and GraphQL alike).
const (
	RuleCreation = "Cannot create ref due to creations being restricted."
	RuleUpdate   = "Cannot update this protected ref."
)

// ruleViolation is the message of a refusal by a ruleset: "Repository rule violations
// found", a blank line, the rule's message and a blank line, as REST's 422 bodies carry it.
func RuleViolation(rule string) string {
	return "Repository rule violations found\n\n" + rule + "\n\n"
}

// refusedBy is the rule that refuses creating (exists false) or updating branch name of r,
// "" when none does. The caller holds s.mu.
func (r *repo) RefusedBy(name string, exists bool) string {
	if r.Restricted[name] == 0 {
		return ""
	}
	if exists {
		return RuleUpdate
	}
	return RuleCreation
}

func gitObjectResolvers() {
	on("Commit", map[string]resolver{
		"author":              value(func(c *commit) any { return c.Author }),
		"committer":           value(func(c *commit) any { return c.Committer }),
		"committedViaWeb":     value(func(c *commit) any { return c.ViaWeb }),
		"authoredByCommitter": value(func(c *commit) any { return c.Author == c.Committer }),
		"signature": value(func(c *commit) any {
			if c.Sig == "" {
				return nil
			}
			return signature{c}
		}),
	})
	on("GitActor", map[string]resolver{
		"name":  value(func(a gitActor) any { return a.Name }),
		"email": value(func(a gitActor) any { return a.Email }),
		"date":  value(func(a gitActor) any { return gqlTime(a.Date) }),
		// A bot's commits match its account: GitHub serves it here as a User whose login
		// ends in [bot], as the User-typed viewer is.
		"user": value(func(a gitActor) any { return actorOrNil(a.Login) }),
	})
	on("GpgSignature", map[string]resolver{
		"isValid":           value(func(s signature) any { return true }),
		"state":             value(func(s signature) any { return "VALID" }),
		"wasSignedByGitHub": value(func(s signature) any { return s.c.Sig == WebFlow }),
		"signer":            value(func(s signature) any { return actor(s.c.Sig) }),
		"email":             value(func(s signature) any { return AccountActor(s.c.Sig, s.c.Date).Email }),
		"keyId":             value(func(s signature) any { return strings.ToUpper(FakeSHA("key", s.c.Sig)[:16]) }),
		"verifiedAt":        value(func(s signature) any { return gqlTime(s.c.Date) }),
		"payload":           value(func(s signature) any { return s.c.Payload() }),
		"signature": value(func(s signature) any {
			return "-----BEGIN PGP SIGNATURE-----\n\n" + FakeSHA("sig", s.c.SHA) + "\n-----END PGP SIGNATURE-----\n"
		}),
	})
}

// payload is the commit object as git hashes it, without its signature: what a signature
// signs.
func (c *commit) Payload() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s\n", FakeSHA("tree", c.SHA))
	for _, p := range c.Parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	for _, x := range []struct {
		role string
		a    gitActor
	}{{"author", c.Author}, {"committer", c.Committer}} {
		fmt.Fprintf(&b, "%s %s <%s> %d +0000\n", x.role, x.a.Name, x.a.Email, x.a.Date.Unix())
	}
	fmt.Fprintf(&b, "\n%s\n", c.Message)
	return b.String()
}

// RestrictBranch adds a ruleset to repoName that targets branch name with the rules
// "Restrict creations" and "Restrict updates" and no bypass: creating or updating the branch
// (createCommitOnBranch, createRef, REST git refs, merges into it, git pushes) is then refused
// as GitHub refuses it: "Repository rule violations found". Deleting it stays allowed.
func (s *Server) RestrictBranch(repoName, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	if r.Restricted == nil {
		r.Restricted = map[string]int{}
	}
	if r.Restricted[name] == 0 {
		r.Restricted[name] = len(r.Restricted) + 1
	}
}

// branchRules are the rules that apply to branch name of r, as "Get rules for a branch"
// lists them: a restricting ruleset's "creation" and "update" rules (RestrictBranch), none
// otherwise. The branch need not exist. The caller holds s.mu.
func (r *repo) BranchRules(name string) []any {
	rules := []any{}
	if id := r.Restricted[name]; id != 0 {
		for _, typ := range []string{"creation", "update"} {
			rules = append(rules, obj{"type": typ, "ruleset_source_type": "Repository", "ruleset_source": r.FullName(), "ruleset_id": id})
		}
	}
	return rules
}

// DeleteBranch deletes branch name of repoName, as someone with write access does in
// GitHub's UI or with a push; it reports whether the branch was there. The default branch
// cannot be deleted (it panics).
func (s *Server) DeleteBranch(repoName, name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	if name == r.DefaultBranch {
		panic(fmt.Sprintf("ghfake: %s cannot delete its default branch %s", repoName, name))
	}
	if r.Branches[name] == nil {
		return false
	}
	s.deleteBranch(r, name)
	return true
}

// deleteBranch removes branch name of r and marks the pull requests whose head it was. The
// caller holds s.mu.
func (s *Server) deleteBranch(r *repo, name string) {
	delete(r.Branches, name)
	for _, x := range s.repos { // a fork's branch is the head of pull requests in its parent
		for _, is := range x.Issues {
			if is.IsPR && is.HeadRepository() == r && is.Head == name {
				is.BranchDeleted = true
			}
		}
	}
}

// GitPush is one commit someone pushes with git: files written (path → content) and
// deleted, with a message, as Author. Author is what the commit claims, which git does not
// check; it defaults to the pusher. The commit is unsigned unless SignedBy names whose own
// key signed it.
type GitPush struct {
	Pusher   string // who pushes; needs write access
	Author   string
	SignedBy string
	Message  string
	Files    map[string]string
	Delete   []string
}

// ErrRuleViolation is the refusal of a git push by a ruleset ("GH013: Repository rule
// violations found").
var ErrRuleViolation = errors.New("push declined due to repository rule violations")

// PushCommit pushes one commit onto branch name of repoName (creating the branch from the
// default branch's head when it does not exist) and returns its sha, as `git push` by
// p.Pusher does. A branch a ruleset restricts refuses it (ErrRuleViolation).
func (s *Server) PushCommit(repoName, name string, p GitPush) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	if !canPush(s.permission(p.Pusher)) {
		return "", fmt.Errorf("ghfake: %s may not push to %s", p.Pusher, repoName)
	}
	if rule := r.RefusedBy(name, r.Branches[name] != nil); rule != "" {
		return "", fmt.Errorf("GH013: Repository rule violations found for refs/heads/%s: %s: %w", name, rule, ErrRuleViolation)
	}
	b := s.ensureBranch(r, name)
	files := CopyFiles(b.Files)
	for _, path := range slices.Sorted(maps.Keys(p.Files)) {
		bl := &blob{OID: BlobOID(p.Files[path]), Text: p.Files[path]}
		r.Blobs[bl.OID] = bl
		files[path] = bl
	}
	for _, path := range p.Delete {
		delete(files, path)
	}
	r.Pushes++
	c := s.newCommit(r, cmp.Or(p.Message, "Update "+name), []string{b.Head}, files, r.FullName(), name, b.Head, r.Pushes, "push")
	c.Authored(cmp.Or(p.Author, p.Pusher), false)
	c.Sig = p.SignedBy
	b.Head, b.Files = c.SHA, files
	return c.SHA, nil
}

// BranchHead returns the head commit of branch name of repoName; ok is false when there is
// no such branch.
func (s *Server) BranchHead(repoName, name string) (sha string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.mustRepo(repoName).Branches[name]
	if b == nil {
		return "", false
	}
	return b.Head, true
}

// BranchFiles returns the files at the head of branch name of repoName (path → content);
// nil when there is no such branch.
func (s *Server) BranchFiles(repoName, name string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.mustRepo(repoName).Branches[name]
	if b == nil {
		return nil
	}
	out := make(map[string]string, len(b.Files))
	for p, bl := range b.Files {
		out[p] = bl.Text
	}
	return out
}

// CommitView is a commit as tests assert on it.
type CommitView struct {
	SHA     string
	Message string
	Parents []string
	Author  string // the login the commit's author matches
	// SignedByGitHub: made through the web or the API and signed by GitHub (web-flow).
	SignedByGitHub bool
	Files          map[string]string // path → content, the whole tree at the commit
}

// BranchLog returns the commits of branch name of repoName, newest first, following first
// parents (git log --first-parent); nil when there is no such branch.
func (s *Server) BranchLog(repoName, name string) []CommitView {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	b := r.Branches[name]
	if b == nil {
		return nil
	}
	var out []CommitView
	for c := r.Commits[b.Head]; c != nil; {
		v := CommitView{SHA: c.SHA, Message: c.Message, Parents: append([]string(nil), c.Parents...),
			Author: c.Author.Login, SignedByGitHub: c.Sig == WebFlow, Files: map[string]string{}}
		for p, bl := range c.Files {
			v.Files[p] = bl.Text
		}
		out = append(out, v)
		if len(c.Parents) == 0 {
			break
		}
		c = r.Commits[c.Parents[0]]
	}
	return out
}
