package ghfake

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/barrier"
)

// Barrier makes invocations started together really race: it holds every write (a GraphQL
// mutation, a REST request other than GET or HEAD) of its participants until each of them
// has done a read (a GraphQL query, a REST GET) or has left, so that all of them read
// the same world before any of them changes it. A participant is an invocation's token
// (NewBotToken: each job gets its own GITHUB_TOKEN); other requests pass freely. A write
// held longer than the timeout releases the barrier, so that a participant that never reads
// cannot deadlock the others. A request answered by an injected fault is neither a read nor
// a write.
type Barrier = barrier.Barrier

// BarrierStats is what a barrier saw.
type BarrierStats = barrier.Stats

// ArmBarrier arms a barrier for the invocations authenticated by tokens, replacing any
// barrier armed before. Disarm it when they are done.
func (s *Server) ArmBarrier(tokens []string, timeout time.Duration) *Barrier {
	b := barrier.New(tokens, timeout, s.detachBarrier)
	s.Mu.Lock()
	old := s.barrier
	s.barrier = b
	s.Mu.Unlock()
	if old != nil {
		old.Release(false)
	}
	return b
}

// detachBarrier forgets b if it is the armed barrier.
func (s *Server) detachBarrier(b *Barrier) {
	s.Mu.Lock()
	if s.barrier == b {
		s.barrier = nil
	}
	s.Mu.Unlock()
}

// armed returns the barrier armed now, if any.
func (s *Server) armed() *Barrier {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.barrier
}

// holdWrite holds a write by token while a barrier is armed.
func (s *Server) holdWrite(r *http.Request, token string) {
	if b := s.armed(); b != nil {
		b.Hold(r.Context(), token, s.stop)
	}
}

// noteRead counts a read by token for the armed barrier, if any.
func (s *Server) noteRead(token string) {
	if b := s.armed(); b != nil {
		b.NoteRead(token)
	}
}

// isWrite reports whether a REST request changes the world.
func isWrite(method string) bool { return method != http.MethodGet && method != http.MethodHead }

// NewBotToken returns a fresh token of the action's identity, github-actions[bot], as each
// job of a workflow gets its own GITHUB_TOKEN; a barrier tells invocations apart by it.
func (s *Server) NewBotToken() string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.tokenSeq++
	sum := sha1.Sum([]byte(fmt.Sprintf("installation token %d", s.tokenSeq)))
	tok := "ghs_" + hex.EncodeToString(sum[:])[:36]
	s.tokens[tok] = BotLogin
	return tok
}
