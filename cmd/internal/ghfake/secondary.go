package ghfake

import (
	"net/http"
	"strconv"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/faults"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
)

// EnforceSecondaryLimits makes the fake refuse content-creating requests past GitHub's
// secondary limits, as GitHub does: 403 with retry-after, the seconds until the request
// would be within them.
func (s *Server) EnforceSecondaryLimits() {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.secondary = map[string][]time.Time{}
}

// secondaryLimited answers the request with GitHub's secondary rate limit when it creates
// content past the limits, and otherwise counts it when it does.
func (s *Server) secondaryLimited(w http.ResponseWriter, r *http.Request, login string) bool {
	if !faults.CreatesContent(r) {
		return false
	}
	s.Mu.Lock()
	if s.secondary == nil {
		s.Mu.Unlock()
		return false
	}
	now := s.Clock()
	var kept []time.Time
	for _, t := range s.secondary[login] {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	wait := faults.SecondaryWait(kept, now)
	if wait == 0 {
		kept = append(kept, now)
	}
	s.secondary[login] = kept
	s.Mu.Unlock()
	if wait == 0 {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
	rest.WriteJSON(w, http.StatusForbidden, map[string]any{"message": faults.SecondaryMessage, "documentation_url": docsSecondaryRateLimit})
	return true
}
