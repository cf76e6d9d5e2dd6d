package ghfake

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Barrier makes invocations started together really race: it holds every write (a GraphQL
// mutation, a REST request other than GET or HEAD) of its participants until each of them
// has done a read (a GraphQL query, a REST GET) or has left, so that all of them read
// the same world before any of them changes it. A participant is an invocation's token
// (NewBotToken: each job gets its own GITHUB_TOKEN); other requests pass freely. A write
// held longer than the timeout releases the barrier, so that a participant that never reads
// cannot deadlock the others. A request answered by an injected fault is neither a read nor
// a write.
type Barrier struct {
	s       *Server
	timeout time.Duration

	mu       sync.Mutex
	waiting  map[string]bool // participants that have neither read nor left
	read     map[string]bool // participants that read before the release
	held     int             // writes held
	timedOut bool
	released chan struct{}
}

// BarrierStats is what a barrier saw.
type BarrierStats struct {
	Participants int
	// Read is how many participants read before the barrier released.
	Read int
	// Held is how many writes it held (each waited for every participant's read).
	Held int
	// Released: every participant read or left; TimedOut: a held write waited too long.
	Released, TimedOut bool
}

// ArmBarrier arms a barrier for the invocations authenticated by tokens, replacing any
// barrier armed before. Disarm it when they are done.
func (s *Server) ArmBarrier(tokens []string, timeout time.Duration) *Barrier {
	b := &Barrier{s: s, timeout: timeout, waiting: map[string]bool{}, read: map[string]bool{}, released: make(chan struct{})}
	for _, t := range tokens {
		b.waiting[t] = true
	}
	s.mu.Lock()
	old := s.barrier
	s.barrier = b
	s.mu.Unlock()
	if old != nil {
		old.release(false)
	}
	if len(tokens) == 0 {
		b.release(false)
	}
	return b
}

// Leave says the invocation of token is over: the barrier no longer waits for its read.
func (b *Barrier) Leave(token string) {
	b.mu.Lock()
	delete(b.waiting, token)
	done := len(b.waiting) == 0
	b.mu.Unlock()
	if done {
		b.release(false)
	}
}

// Disarm releases the barrier and detaches it from the server, and returns what it saw.
func (b *Barrier) Disarm() BarrierStats {
	b.s.mu.Lock()
	if b.s.barrier == b {
		b.s.barrier = nil
	}
	b.s.mu.Unlock()
	st := b.Stats()
	b.release(false)
	return st
}

// Stats returns what the barrier saw so far.
func (b *Barrier) Stats() BarrierStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := BarrierStats{Participants: len(b.waiting) + len(b.read), Read: len(b.read), Held: b.held, TimedOut: b.timedOut}
	select {
	case <-b.released:
		st.Released = !b.timedOut
	default:
	}
	return st
}

func (b *Barrier) isReleased() bool {
	select {
	case <-b.released:
		return true
	default:
		return false
	}
}

// release opens the barrier once; timedOut records why.
func (b *Barrier) release(timedOut bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.isReleased() {
		return
	}
	b.timedOut = timedOut
	close(b.released)
}

// noteRead records a read by token.
func (b *Barrier) noteRead(token string) {
	b.mu.Lock()
	if b.isReleased() || !b.waiting[token] {
		b.mu.Unlock()
		return
	}
	delete(b.waiting, token)
	b.read[token] = true
	done := len(b.waiting) == 0
	b.mu.Unlock()
	if done {
		b.release(false)
	}
}

// hold holds a write by token until the barrier is released, the timeout passes, the
// client gives up or the server closes.
func (b *Barrier) hold(ctx context.Context, token string, stop <-chan struct{}) {
	b.mu.Lock()
	if b.isReleased() || !b.waiting[token] && !b.read[token] {
		b.mu.Unlock()
		return
	}
	b.held++
	b.mu.Unlock()
	timer := time.NewTimer(b.timeout)
	defer timer.Stop()
	select {
	case <-b.released:
	case <-timer.C:
		b.release(true)
	case <-ctx.Done():
	case <-stop:
	}
}

// armed returns the barrier armed now, if any.
func (s *Server) armed() *Barrier {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.barrier
}

// holdWrite holds a write by token while a barrier is armed.
func (s *Server) holdWrite(r *http.Request, token string) {
	if b := s.armed(); b != nil {
		b.hold(r.Context(), token, s.stop)
	}
}

// noteRead counts a read by token for the armed barrier, if any.
func (s *Server) noteRead(token string) {
	if b := s.armed(); b != nil {
		b.noteRead(token)
	}
}

// isWrite reports whether a REST request changes the world.
func isWrite(method string) bool { return method != http.MethodGet && method != http.MethodHead }

// NewBotToken returns a fresh token of the action's identity, github-actions[bot], as each
// job of a workflow gets its own GITHUB_TOKEN; a barrier tells invocations apart by it.
func (s *Server) NewBotToken() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenSeq++
	sum := sha1.Sum([]byte(fmt.Sprintf("installation token %d", s.tokenSeq)))
	tok := "ghs_" + hex.EncodeToString(sum[:])[:36]
	s.tokens[tok] = BotLogin
	return tok
}

// bearer is the token of the request's Authorization header, "" when there is none.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	for _, p := range []string{"Bearer ", "bearer ", "token ", "Token "} {
		if strings.HasPrefix(h, p) {
			return strings.TrimSpace(h[len(p):])
		}
	}
	return ""
}
