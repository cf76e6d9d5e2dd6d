package ghfake

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// AddRepo creates the repository fullName ("owner/name") with an initial commit on defaultBranch.
// Adding an existing repository changes nothing.
func (s *Server) AddRepo(fullName, defaultBranch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.repos[fullName]; ok {
		return
	}
	owner, name, ok := strings.Cut(fullName, "/")
	if !ok {
		panic(fmt.Sprintf("ghfake: repository %q is not owner/name", fullName))
	}
	r := &repo{
		Owner: owner, Name: name, ID: world.StableID(fullName), DefaultBranch: defaultBranch,
		Branches: map[string]*branch{}, Commits: map[string]*commit{},
		Blobs: map[string]*blob{}, Trees: map[string]*tree{}, Issues: map[int]*issue{},
	}
	s.repos[fullName] = r
	c := s.newCommit(r, "Initial commit", nil, nil, fullName, defaultBranch, 0).Authored(owner, false)
	r.Branches[defaultBranch] = &branch{Name: defaultBranch, Head: c.SHA, Files: map[string]*blob{}}
}

// ensureFork returns owner's fork of r, "<owner>/<r's name>", creating it with r's default
// branch as it is now. A fork shares its parent's objects (commits, blobs and trees), as a fork
// network on GitHub does. The caller holds s.mu.
func (s *Server) ensureFork(r *repo, owner string) *repo {
	fullName := owner + "/" + r.Name
	if f, ok := s.repos[fullName]; ok {
		if f.Parent != r {
			panic(fmt.Sprintf("ghfake: %s exists and is not a fork of %s", fullName, r.FullName()))
		}
		return f
	}
	if owner == r.Owner {
		panic(fmt.Sprintf("ghfake: %s cannot fork its own repository %s", owner, r.FullName()))
	}
	f := &repo{
		Owner: owner, Name: r.Name, ID: world.StableID(fullName), DefaultBranch: r.DefaultBranch,
		Branches: map[string]*branch{}, Commits: r.Commits, Blobs: r.Blobs, Trees: r.Trees, Issues: map[int]*issue{},
		Parent: r,
	}
	def := r.Branches[r.DefaultBranch]
	b := &branch{Name: def.Name, Head: def.Head, Files: map[string]*blob{}}
	for p, bl := range def.Files {
		b.Files[p] = bl
	}
	f.Branches[b.Name] = b
	s.repos[fullName] = f
	return f
}

// AddBranch creates branch name in repoName from the default branch's head (no new commit).
// Adding an existing branch changes nothing.
func (s *Server) AddBranch(repoName, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureBranch(s.mustRepo(repoName), name)
}

// SetFile writes content at path on branch (creating the branch from the default branch if needed)
// as a new commit, and returns the blob OID, git's sha1 of "blob <len>\x00<content>".
func (s *Server) SetFile(repoName, branchName, path, content string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	b := s.ensureBranch(r, branchName)
	bl := &blob{OID: world.BlobOID(content), Text: content}
	r.Blobs[bl.OID] = bl
	b.Files[path] = bl
	r.Pushes++
	b.Head = s.newCommit(r, "Update "+path, []string{b.Head}, b.Files, r.FullName(), branchName, r.Pushes).Authored(r.Owner, false).SHA
	return bl.OID
}

// DeleteFile removes path from branch as a new commit; it reports whether the file was there.
func (s *Server) DeleteFile(repoName, branchName, path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	b := s.ensureBranch(r, branchName)
	if b.Files[path] == nil {
		return false
	}
	delete(b.Files, path)
	r.Pushes++
	b.Head = s.newCommit(r, "Delete "+path, []string{b.Head}, b.Files, r.FullName(), branchName, r.Pushes).Authored(r.Owner, false).SHA
	return true
}

// AddUser gives login a permission on every repository: read, triage, write, maintain or admin.
// Users never added have no permission ("none").
func (s *Server) AddUser(login, permission string) {
	if _, ok := permRank[permission]; !ok {
		panic(fmt.Sprintf("ghfake: unknown permission %q", permission))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[login] = permission
}

// AddTeam stores the members of team "org/slug" (served by the teams operations).
func (s *Server) AddTeam(team string, members ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.teams[team] = append([]string(nil), members...)
}

// Permission returns login's permission on the repositories, as GitHub would answer it.
func (s *Server) Permission(login string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.permission(login)
}

// ChangeTeam adds members to team "org/slug" and removes others from it, as an owner of
// the organization does; GitHub starts no workflow for it.
func (s *Server) ChangeTeam(team string, add, remove []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var members []string
	for _, m := range s.teams[team] {
		if !slices.ContainsFunc(remove, func(r string) bool { return strings.EqualFold(r, m) }) {
			members = append(members, m)
		}
	}
	for _, a := range add {
		if !slices.ContainsFunc(members, func(m string) bool { return strings.EqualFold(a, m) }) {
			members = append(members, a)
		}
	}
	s.teams[team] = members
}

// mustRepo returns the repository or panics: the Go API is driven by tests and scenarios, where an
// unknown repository is a bug in the caller. The caller holds s.mu.
func (s *Server) mustRepo(fullName string) *repo {
	r, ok := s.repos[fullName]
	if !ok {
		panic(fmt.Sprintf("ghfake: unknown repository %q (call AddRepo first)", fullName))
	}
	return r
}

// mustIssue returns issue or pull request number, or panics. The caller holds s.mu.
func (s *Server) mustIssue(r *repo, number int) *issue {
	is, ok := r.Issues[number]
	if !ok {
		panic(fmt.Sprintf("ghfake: %s#%d does not exist", r.FullName(), number))
	}
	return is
}

// mustPR returns pull request number, or panics. The caller holds s.mu.
func (s *Server) mustPR(r *repo, number int) *issue {
	is := s.mustIssue(r, number)
	if !is.IsPR {
		panic(fmt.Sprintf("ghfake: %s#%d is an issue, not a pull request", r.FullName(), number))
	}
	return is
}

// ensureBranch returns branch name, creating it from the default branch's head and files.
// The caller holds s.mu.
func (s *Server) ensureBranch(r *repo, name string) *branch {
	if b, ok := r.Branches[name]; ok {
		return b
	}
	def := r.Branches[r.DefaultBranch]
	b := &branch{Name: name, Head: def.Head, Files: map[string]*blob{}}
	for p, bl := range def.Files {
		b.Files[p] = bl
	}
	r.Branches[name] = b
	return b
}

// ensureBranchFrom returns branch name, creating it at from's head with from's files. The
// caller holds s.mu.
func (s *Server) ensureBranchFrom(r *repo, name string, from *branch) *branch {
	if b, ok := r.Branches[name]; ok {
		return b
	}
	b := &branch{Name: name, Head: from.Head, Files: world.CopyFiles(from.Files)}
	r.Branches[name] = b
	return b
}

// newCommit records a commit of files (copied: the caller's map may change later) on parents,
// with a deterministic sha made of its parts. The caller holds s.mu.
func (s *Server) newCommit(r *repo, message string, parents []string, files map[string]*blob, parts ...any) *commit {
	s.commitSeq++
	c := &commit{
		Repo: r, SHA: world.FakeSHA(append([]any{"commit"}, parts...)...), Message: message, Date: s.clock(),
		Seq: s.commitSeq, Parents: append([]string(nil), parents...), Files: world.CopyFiles(files),
	}
	r.Commits[c.SHA] = c
	return c
}
