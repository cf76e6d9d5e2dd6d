package ghfake

import (
	"net"
	"net/http"
	"sync"
)

// listener serves the fake on a loopback port with the standard library's server alone, so
// that a binary embedding the fake (the simulate command) links no test machinery.
type listener struct {
	url    string
	server *http.Server

	mu       sync.Mutex
	closed   bool
	inFlight sync.WaitGroup
}

// listen starts serving h on 127.0.0.1 at a port the system picks.
func listen(h http.Handler) *listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("ghfake: cannot listen on loopback: " + err.Error())
	}
	l := &listener{url: "http://" + ln.Addr().String()}
	l.server = &http.Server{Handler: l.track(h)}
	go func() { _ = l.server.Serve(ln) }()
	return l
}

// track counts the requests being served, so that close can wait for them to end.
func (l *listener) track(h http.Handler) http.Handler {
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

// close stops accepting connections, closes the open ones and waits until every request
// being served has ended, as httptest.Server.Close does.
func (l *listener) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	_ = l.server.Close()
	l.inFlight.Wait()
}
