package ghfake

import (
	"net/http"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/faults"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/ratelimit"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
)

// The kinds of token the action's identity may run with, whose primary limits differ.
const (
	TokenGitHub = "github" // a workflow's GITHUB_TOKEN: 1,000 REST requests and GraphQL points an hour per repository
	TokenApp    = "app"    // a GitHub App's installation token: 5,000 of each an hour
)

// EnforcePrimaryLimits makes the fake count GitHub's primary rate limits, as GitHub does:
// each identity's REST requests and GraphQL points of the hour, told on every answer in
// x-ratelimit-* headers; when they are spent a REST request is answered 403 with
// x-ratelimit-remaining 0 and the reset, and a GraphQL request a 200 carrying a
// RATE_LIMITED error. bot is the kind of token the action's identity has (TokenGitHub or
// TokenApp); every other identity has a user's 5,000 an hour.
func (s *Server) EnforcePrimaryLimits(bot string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.primary = ratelimit.New(func(login string) int {
		switch {
		case login != BotLogin:
			return ratelimit.User
		case bot == TokenApp:
			return ratelimit.AppToken
		}
		return ratelimit.GitHubToken
	})
}

// SpendPrimary sets what login has used of its hour of resource ("core" for REST,
// "graphql"), from the world's clock on: a story that starts with the budget spent.
func (s *Server) SpendPrimary(login, resource string, used int) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.primary != nil {
		s.primary.Set(login, resource, used, s.Clock())
	}
}

// primaryLimited counts a REST request against login's primary limit, writes the limit's
// headers, and answers the request when the limit is spent.
func (s *Server) primaryLimited(w http.ResponseWriter, login string) bool {
	s.Mu.Lock()
	if s.primary == nil {
		s.Mu.Unlock()
		return false
	}
	st := s.primary.Spend(login, ratelimit.Core, 1, s.Clock())
	s.Mu.Unlock()
	st.Headers(w.Header())
	if st.Refused {
		rest.WriteJSON(w, http.StatusForbidden, map[string]any{"message": ratelimit.Message, "documentation_url": docsPrimaryRateLimit})
	}
	return st.Refused
}

// graphQLLimited counts the points of op against login's primary limit, writes the
// limit's headers, and answers the request when they do not fit in what is left.
func (s *Server) graphQLLimited(w http.ResponseWriter, login string, op *ast.OperationDefinition, vars map[string]any) bool {
	s.Mu.Lock()
	if s.primary == nil {
		s.Mu.Unlock()
		return false
	}
	st := s.primary.Spend(login, ratelimit.GraphQL, ratelimit.Cost(op, vars), s.Clock())
	s.Mu.Unlock()
	st.Headers(w.Header())
	if st.Refused {
		rest.WriteJSON(w, http.StatusOK, faults.RateLimitedGraphQL(ratelimit.Message))
	}
	return st.Refused
}

// PrimaryUsed is what login has spent of the hour of resource ("core", "graphql") that is
// running at the world's clock; 0 when the limits are not counted.
func (s *Server) PrimaryUsed(login, resource string) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.primary == nil {
		return 0
	}
	return s.primary.Used(login, resource, s.Clock())
}
