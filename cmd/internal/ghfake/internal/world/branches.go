package world

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// RestrictBranch adds a ruleset to repoName that targets branch name with the rules
// "Restrict creations" and "Restrict updates" and no bypass: creating or updating the branch
// (createCommitOnBranch, createRef, REST git refs, merges into it, git pushes) is then refused
// as GitHub refuses it: "Repository rule violations found". Deleting it stays allowed.
func (s *Git) RestrictBranch(repoName, name string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	if r.Restricted == nil {
		r.Restricted = map[string]int{}
	}
	if r.Restricted[name] == 0 {
		r.Restricted[name] = len(r.Restricted) + 1
	}
}

// DeleteBranch deletes branch name of repoName, as someone with write access does in
// GitHub's UI or with a push; it reports whether the branch was there. The default branch
// cannot be deleted (it panics).
func (s *Git) DeleteBranch(repoName, name string) bool {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	if name == r.DefaultBranch {
		panic(fmt.Sprintf("ghfake: %s cannot delete its default branch %s", repoName, name))
	}
	if r.Branches[name] == nil {
		return false
	}
	s.RemoveBranch(r, name)
	return true
}

// RemoveBranch removes branch name of r and marks the pull requests whose head it was. The
// caller holds Mu.
func (s *Git) RemoveBranch(r *Repo, name string) {
	delete(r.Branches, name)
	for _, x := range s.Repos { // a fork's branch is the head of pull requests in its parent
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
func (s *Git) PushCommit(repoName, name string, p GitPush) (string, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	if !CanPush(s.PermissionOf(p.Pusher)) {
		return "", fmt.Errorf("ghfake: %s may not push to %s", p.Pusher, repoName)
	}
	if rule := r.RefusedBy(name, r.Branches[name] != nil); rule != "" {
		return "", fmt.Errorf("GH013: Repository rule violations found for refs/heads/%s: %s: %w", name, rule, ErrRuleViolation)
	}
	b := s.EnsureBranch(r, name)
	files := CopyFiles(b.Files)
	for _, path := range slices.Sorted(maps.Keys(p.Files)) {
		bl := &Blob{OID: BlobOID(p.Files[path]), Text: p.Files[path]}
		r.Blobs[bl.OID] = bl
		files[path] = bl
	}
	for _, path := range p.Delete {
		delete(files, path)
	}
	r.Pushes++
	c := s.NewCommit(r, cmp.Or(p.Message, "Update "+name), []string{b.Head}, files, r.FullName(), name, b.Head, r.Pushes, "push")
	c.Authored(cmp.Or(p.Author, p.Pusher), false)
	c.Sig = p.SignedBy
	b.Head, b.Files = c.SHA, files
	return c.SHA, nil
}

// BranchHead returns the head commit of branch name of repoName; ok is false when there is
// no such branch.
func (s *Git) BranchHead(repoName, name string) (sha string, ok bool) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	b := s.MustRepo(repoName).Branches[name]
	if b == nil {
		return "", false
	}
	return b.Head, true
}

// BranchFiles returns the files at the head of branch name of repoName (path → content);
// nil when there is no such branch.
func (s *Git) BranchFiles(repoName, name string) map[string]string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	b := s.MustRepo(repoName).Branches[name]
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
func (s *Git) BranchLog(repoName, name string) []CommitView {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
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
