// Package loopback serves an http.Handler on a loopback port with the standard library's
// server alone, and records answers a client never sees.
package loopback

import (
	"net"
	"net/http"
	"sync"
)

// Listener serves a handler on a loopback port with the standard library's server alone, so
// that a binary embedding the fake (the simulate command) links no test machinery.
type Listener struct {
	URL    string
	server *http.Server

	mu       sync.Mutex
	closed   bool
	inFlight sync.WaitGroup
}

// Listen starts serving h on 127.0.0.1 at a port the system picks.
func Listen(h http.Handler) *Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("ghfake: cannot listen on loopback: " + err.Error())
	}
	l := &Listener{URL: "http://" + ln.Addr().String()}
	l.server = &http.Server{Handler: l.track(h)}
	go func() { _ = l.server.Serve(ln) }()
	return l
}

// track counts the requests being served, so that Close can wait for them to end.
func (l *Listener) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			http.Error(w, "ghfake: closed", http.StatusServiceUnavailable)
			return
		}
		l.inFlight.Add(1)
		l.mu.Unlock()
		defer l.inFlight.Done()
		h.ServeHTTP(w, r)
	})
}

// Close stops accepting connections, closes the open ones and waits until every request
// being served has ended, as httptest.Server.Close does.
func (l *Listener) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	_ = l.server.Close()
	l.inFlight.Wait()
}
