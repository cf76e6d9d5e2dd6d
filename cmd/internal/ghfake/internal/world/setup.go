package world

import (
	"fmt"
	"sort"
	"strings"
)

// AddRepo creates the repository fullName ("owner/name") with an initial commit on defaultBranch.
// Adding an existing repository changes nothing.
func (s *Git) AddRepo(fullName, defaultBranch string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if _, ok := s.Repos[fullName]; ok {
		return
	}
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok {
		panic(fmt.Sprintf("ghfake: repository %q is not owner/name", fullName))
	}
	r := &Repo{
		Owner: owner, Name: name, ID: StableID(fullName), DefaultBranch: defaultBranch,
		Branches: map[string]*Branch{}, Commits: map[string]*Commit{},
		Blobs: map[string]*Blob{}, Trees: map[string]*Tree{}, Issues: map[int]*Issue{},
	}
	s.Repos[fullName] = r
	c := s.NewCommit(r, "Initial commit", nil, nil, fullName, defaultBranch, 0).Authored(owner, false)
	r.Branches[defaultBranch] = &Branch{Name: defaultBranch, Head: c.SHA, Files: map[string]*Blob{}}
}

// EnsureFork returns owner's fork of r, "<owner>/<r's name>", creating it with r's default
// branch as it is now. A fork shares its parent's objects (commits, blobs and trees), as a fork
// network on GitHub does. The caller holds Mu.
func (s *Git) EnsureFork(r *Repo, owner string) *Repo {
	fullName := owner + "/" + r.Name
	if f, ok := s.Repos[fullName]; ok {
		if f.Parent != r {
			panic(fmt.Sprintf("ghfake: %s exists and is not a fork of %s", fullName, r.FullName()))
		}
		return f
	}
	if owner == r.Owner {
		panic(fmt.Sprintf("ghfake: %s cannot fork its own repository %s", owner, r.FullName()))
	}
	f := &Repo{
		Owner: owner, Name: r.Name, ID: StableID(fullName), DefaultBranch: r.DefaultBranch,
		Branches: map[string]*Branch{}, Commits: r.Commits, Blobs: r.Blobs, Trees: r.Trees, Issues: map[int]*Issue{},
		Parent: r,
	}
	def := r.Branches[r.DefaultBranch]
	b := &Branch{Name: def.Name, Head: def.Head, Files: map[string]*Blob{}}
	for p, bl := range def.Files {
		b.Files[p] = bl
	}
	f.Branches[b.Name] = b
	s.Repos[fullName] = f
	return f
}

// AddBranch creates branch name in repoName from the default branch's head (no new commit).
// Adding an existing branch changes nothing.
func (s *Git) AddBranch(repoName, name string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.EnsureBranch(s.MustRepo(repoName), name)
}

// SetFile writes content at path on branch (creating the branch from the default branch if needed)
// as a new commit, and returns the blob OID, git's sha1 of "blob <len>\x00<content>".
func (s *Git) SetFile(repoName, branchName, path, content string) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	b := s.EnsureBranch(r, branchName)
	bl := &Blob{OID: BlobOID(content), Text: content}
	r.Blobs[bl.OID] = bl
	b.Files[path] = bl
	r.Pushes++
	b.Head = s.NewCommit(r, "Update "+path, []string{b.Head}, b.Files, r.FullName(), branchName, r.Pushes).Authored(r.Owner, false).SHA
	return bl.OID
}

// DeleteFile removes path from branch as a new commit; it reports whether the file was there.
func (s *Git) DeleteFile(repoName, branchName, path string) bool {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	b := s.EnsureBranch(r, branchName)
	if b.Files[path] == nil {
		return false
	}
	delete(b.Files, path)
	r.Pushes++
	b.Head = s.NewCommit(r, "Delete "+path, []string{b.Head}, b.Files, r.FullName(), branchName, r.Pushes).Authored(r.Owner, false).SHA
	return true
}

// MustRepo returns the repository or panics: the Go API is driven by tests and scenarios, where an
// unknown repository is a bug in the caller. The caller holds Mu.
func (s *World) MustRepo(fullName string) *Repo {
	r, ok := s.Repos[fullName]
	if !ok {
		panic(fmt.Sprintf("ghfake: unknown repository %q (call AddRepo first)", fullName))
	}
	return r
}

// MustIssue returns issue or pull request number, or panics. The caller holds Mu.
func (s *World) MustIssue(r *Repo, number int) *Issue {
	is, ok := r.Issues[number]
	if !ok {
		panic(fmt.Sprintf("ghfake: %s#%d does not exist", r.FullName(), number))
	}
	return is
}

// MustPR returns pull request number, or panics. The caller holds Mu.
func (s *World) MustPR(r *Repo, number int) *Issue {
	is := s.MustIssue(r, number)
	if !is.IsPR {
		panic(fmt.Sprintf("ghfake: %s#%d is an issue, not a pull request", r.FullName(), number))
	}
	return is
}

// EnsureBranch returns branch name, creating it from the default branch's head and files.
// The caller holds Mu.
func (s *Git) EnsureBranch(r *Repo, name string) *Branch {
	if b, ok := r.Branches[name]; ok {
		return b
	}
	def := r.Branches[r.DefaultBranch]
	b := &Branch{Name: name, Head: def.Head, Files: map[string]*Blob{}}
	for p, bl := range def.Files {
		b.Files[p] = bl
	}
	r.Branches[name] = b
	return b
}

// EnsureBranchFrom returns branch name, creating it at from's head with from's files. The
// caller holds Mu.
func (s *Git) EnsureBranchFrom(r *Repo, name string, from *Branch) *Branch {
	if b, ok := r.Branches[name]; ok {
		return b
	}
	b := &Branch{Name: name, Head: from.Head, Files: CopyFiles(from.Files)}
	r.Branches[name] = b
	return b
}

// NewCommit records a commit of files (copied: the caller's map may change later) on parents,
// with a deterministic sha made of its parts. The caller holds Mu.
func (s *Git) NewCommit(r *Repo, message string, parents []string, files map[string]*Blob, parts ...any) *Commit {
	s.CommitSeq++
	c := &Commit{
		Repo: r, SHA: FakeSHA(append([]any{"commit"}, parts...)...), Message: message, Date: s.Clock(),
		Seq: s.CommitSeq, Parents: append([]string(nil), parents...), Files: CopyFiles(files),
	}
	r.Commits[c.SHA] = c
	return c
}

// Branches returns the names of the branches of repoName, sorted.
func (s *Git) Branches(repoName string) []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	out := make([]string, 0, len(r.Branches))
	for name := range r.Branches {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
