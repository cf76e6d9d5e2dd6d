// Package barrier holds the writes of invocations started together until each has read, so
// that they really race.
package barrier

import (
	"context"
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
	detach  func(*Barrier)
	timeout time.Duration

	mu       sync.Mutex
	waiting  map[string]bool // participants that have neither read nor left
	read     map[string]bool // participants that read before the release
	held     int             // writes held
	timedOut bool
	released chan struct{}
}

// Stats is what a barrier saw.
type Stats struct {
	Participants int
	// Read is how many participants read before the barrier released.
	Read int
	// Held is how many writes it held (each waited for every participant's read).
	Held int
	// Released: every participant read or left; TimedOut: a held write waited too long.
	Released, TimedOut bool
}

// New is a barrier for the invocations authenticated by tokens; Disarm calls detach. A barrier
// without tokens is released at once.
func New(tokens []string, timeout time.Duration, detach func(*Barrier)) *Barrier {
	b := &Barrier{detach: detach, timeout: timeout, waiting: map[string]bool{}, read: map[string]bool{}, released: make(chan struct{})}
	for _, t := range tokens {
		b.waiting[t] = true
	}
	if len(tokens) == 0 {
		b.Release(false)
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
		b.Release(false)
	}
}

// Disarm releases the barrier and detaches it from the server, and returns what it saw.
func (b *Barrier) Disarm() Stats {
	b.detach(b)
	st := b.Stats()
	b.Release(false)
	return st
}

// Stats returns what the barrier saw so far.
func (b *Barrier) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := Stats{Participants: len(b.waiting) + len(b.read), Read: len(b.read), Held: b.held, TimedOut: b.timedOut}
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

// Release opens the barrier once; timedOut records why.
func (b *Barrier) Release(timedOut bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.isReleased() {
		return
	}
	b.timedOut = timedOut
	close(b.released)
}

// NoteRead records a read by token.
func (b *Barrier) NoteRead(token string) {
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
		b.Release(false)
	}
}

// Hold holds a write by token until the barrier is released, the timeout passes, the
// client gives up or the server closes.
func (b *Barrier) Hold(ctx context.Context, token string, stop <-chan struct{}) {
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
		b.Release(true)
	case <-ctx.Done():
	case <-stop:
	}
}
