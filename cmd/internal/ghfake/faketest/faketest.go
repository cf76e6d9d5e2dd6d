package faketest

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// New starts a fake GitHub that closes when t ends and fails t if any unexpected request
// (unknown route, schema-invalid GraphQL, unimplemented operation or field) reached it.
func New(t testing.TB) *ghfake.Server {
	t.Helper()
	s := ghfake.New()
	t.Cleanup(func() {
		if u := s.Unexpected(); len(u) > 0 {
			t.Errorf("ghfake: %d unexpected request(s):\n  %s", len(u), strings.Join(u, "\n  "))
		}
		s.Close()
	})
	return s
}
