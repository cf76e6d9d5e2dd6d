package ghfake

import "strings"

// Repository-scoped identities. A workflow's GITHUB_TOKEN reaches only the repository of its
// workflow: GitHub answers any other repository as one that does not exist (REST 404 "Not
// Found"; GraphQL "Could not resolve to a Repository with the name 'owner/name'."), as it
// answers a private repository to a stranger. A GitHub App's installation token, or a
// fine-grained personal access token, reaches the repositories it was granted. By default
// the fake's identities reach every repository; Scope restricts one.

// Scope restricts login to repos (owner/name): every other repository is answered as
// missing. No repos lifts the restriction.
func (s *Server) Scope(login string, repos ...string) {
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

// reaches reports whether login may see repository fullName. The caller holds s.mu.
func (s *Server) reaches(login, fullName string) bool {
	allowed, scoped := s.scopes[login]
	return !scoped || allowed[strings.ToLower(fullName)]
}
