package graphql

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"

// nodeReachable reports whether login's token may read node n (as findNode returns it):
// GitHub resolves a node of a repository the token does not reach as it resolves an
// unknown id. The caller holds Mu.
func (s *Env) nodeReachable(login string, n any) bool {
	for _, r := range s.Repos {
		if s.holds(r, n) {
			return s.Reaches(login, r.FullName())
		}
	}
	return false
}

// holds reports whether n is r or one of its objects.
func (s *Env) holds(r *world.Repo, n any) bool {
	switch v := n.(type) {
	case *world.Repo:
		return v == r
	case ref:
		return v.repo == r
	case *world.Comment:
		for _, c := range r.Comments {
			if c == v {
				return true
			}
		}
	default:
		for _, is := range r.Issues {
			if any(is) == n {
				return true
			}
		}
	}
	return false
}
