package world

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
)

// Repository-scoped identities. A workflow's GITHUB_TOKEN reaches only the repository of its
// workflow: GitHub answers any other repository as one that does not exist (REST 404 "Not
// Found"; GraphQL "Could not resolve to a Repository with the name 'owner/name'."), as it
// answers a private repository to a stranger. A GitHub App's installation token, or a
// fine-grained personal access token, reaches the repositories it was granted. By default
// the fake's identities reach every repository; Scope restricts one.

// AddUser gives login a permission on every repository: read, triage, write, maintain or admin.
// Users never added have no permission ("none").
func (s *People) AddUser(login, permission string) {
	if _, ok := PermRank[permission]; !ok {
		panic(fmt.Sprintf("ghfake: unknown permission %q", permission))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.Users[login] = permission
}

// AddTeam stores the members of team "org/slug" (served by the teams operations).
func (s *People) AddTeam(team string, members ...string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.Teams[team] = append([]string(nil), members...)
}

// Permission returns login's permission on the repositories, as GitHub would answer it.
func (s *People) Permission(login string) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.PermissionOf(login)
}

// ChangeTeam adds members to team "org/slug" and removes others from it, as an owner of
// the organization does; GitHub starts no workflow for it.
func (s *People) ChangeTeam(team string, add, remove []string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	var members []string
	for _, m := range s.Teams[team] {
		if !slices.ContainsFunc(remove, func(r string) bool { return strings.EqualFold(r, m) }) {
			members = append(members, m)
		}
	}
	for _, a := range add {
		if !slices.ContainsFunc(members, func(m string) bool { return strings.EqualFold(a, m) }) {
			members = append(members, a)
		}
	}
	s.Teams[team] = members
}

// PermissionOf is a user's permission on the repositories; the action's bot may write.
func (s *People) PermissionOf(login string) string {
	if login == BotLogin {
		return "write"
	}
	if p, ok := s.Users[login]; ok {
		return p
	}
	return "none"
}

// PermRank orders permissions; unknown users rank as "none".
var PermRank = map[string]int{"none": 0, "read": 1, "triage": 2, "write": 3, "maintain": 4, "admin": 5}

// CanPush reports whether the permission lets a user push to the repository.
func CanPush(perm string) bool { return PermRank[perm] >= PermRank["write"] }

// isOwner reports whether user is owner (`@login` or `@org/team`).
func (s *People) isOwner(owner, user string) bool {
	o := strings.TrimPrefix(owner, "@")
	if strings.Contains(o, "/") {
		return slices.Contains(s.Teams[o], user)
	}
	return strings.EqualFold(o, user)
}

// MayPush reports whether login may push into a branch under p: anyone when p restricts no
// one, else the logins, apps and members of the teams p lists.
func (s *People) MayPush(p *Protection, login string) bool {
	if len(p.PushAllowances) == 0 {
		return true
	}
	return slices.ContainsFunc(p.PushAllowances, func(a string) bool { return s.isOwner(a, login) })
}

// Scope restricts login to repos (owner/name): every other repository is answered as
// missing. No repos lifts the restriction.
func (s *People) Scope(login string, repos ...string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.scopes == nil {
		s.scopes = map[string]map[string]bool{}
	}
	if len(repos) == 0 {
		delete(s.scopes, login)
		return
	}
	allowed := map[string]bool{}
	for _, r := range repos {
		allowed[strings.ToLower(r)] = true
	}
	s.scopes[login] = allowed
}

// Reaches reports whether login may see repository fullName. The caller holds Mu.
func (s *People) Reaches(login, fullName string) bool {
	allowed, scoped := s.scopes[login]
	return !scoped || allowed[strings.ToLower(fullName)]
}

// Grant gives token exactly the scopes p; nil lifts the restriction (every scope write).
func (s *People) Grant(token string, p perms.Permissions) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.grants == nil {
		s.grants = map[string]perms.Permissions{}
	}
	if p == nil {
		delete(s.grants, token)
		return
	}
	cp := perms.Permissions{}
	for k, v := range p {
		cp[k] = v
	}
	s.grants[token] = cp
}

// Granted is the scopes of token, nil for every scope. The caller holds Mu.
func (s *People) Granted(token string) perms.Permissions { return s.grants[token] }
