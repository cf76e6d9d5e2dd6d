package sim

import (
	"fmt"
	"net/http"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// callBound is expect.api_calls or expect.content_writes: at most how many requests the
// action's invocations made to GitHub since the scenario began.
type callBound struct {
	AtMost *int `yaml:"at_most"`
}

// contentWrites counts the content-creating requests among calls, as GitHub's secondary
// rate limits count them: REST writes and GraphQL mutations.
func contentWrites(calls []ghfake.Call) int {
	n := 0
	for _, c := range calls {
		if c.Mutation || c.Kind != "graphql" && c.Method != http.MethodGet && c.Method != http.MethodHead {
			n++
		}
	}
	return n
}

// callTotals are the requests of every step played so far, and the content-creating ones.
func (s *simulation) callTotals() (calls, writes int) {
	for _, st := range s.stats {
		for _, v := range st.calls {
			calls += v
		}
		writes += st.writes
	}
	return calls, writes
}

// checkCallBounds checks api_calls and content_writes against the steps played so far.
func (s *simulation) checkCallBounds(report func(bool, string, string, string), e *expectation) {
	calls, writes := s.callTotals()
	if e.APICalls != nil && e.APICalls.AtMost != nil {
		most := *e.APICalls.AtMost
		report(calls <= most, "API calls so far", fmt.Sprintf("at most %d", most), fmt.Sprint(calls))
	}
	if e.ContentWrites != nil && e.ContentWrites.AtMost != nil {
		most := *e.ContentWrites.AtMost
		report(writes <= most, "content-creating API calls so far", fmt.Sprintf("at most %d", most), fmt.Sprint(writes))
	}
}
