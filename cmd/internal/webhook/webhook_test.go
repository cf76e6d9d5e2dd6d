package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stubResolver answers from a map and counts lookups; no query leaves the machine.
type stubResolver map[string][]string

func (s stubResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	ips, ok := s[host]
	if !ok {
		return nil, fmt.Errorf("no such host %s", host)
	}
	out := make([]net.IPAddr, len(ips))
	for i, ip := range ips {
		out[i] = net.IPAddr{IP: net.ParseIP(ip)}
	}
	return out, nil
}

func TestGuardCheck(t *testing.T) {
	cases := []struct {
		addr         string
		refused      bool // by default
		evenPrivate  bool // also with allow_private
		wantFragment string
	}{
		{addr: "203.0.113.10"},
		{addr: "8.8.8.8"},
		{addr: "2606:4700::1111"},
		{addr: "10.1.2.3", refused: true, wantFragment: "a private address; settings.webhooks.allow_private: true allows it"},
		{addr: "172.31.255.255", refused: true, wantFragment: "private"},
		{addr: "192.168.0.1", refused: true, wantFragment: "private"},
		{addr: "127.0.0.1", refused: true, wantFragment: "loopback"},
		{addr: "127.255.0.9", refused: true, wantFragment: "loopback"},
		{addr: "::1", refused: true, wantFragment: "loopback"},
		{addr: "100.64.0.1", refused: true, wantFragment: "carrier-grade NAT"},
		{addr: "fd00::1", refused: true, wantFragment: "unique local"},
		{addr: "169.254.169.254", refused: true, evenPrivate: true, wantFragment: "link-local address (where cloud metadata services answer), which webhooks never call"},
		{addr: "fe80::1", refused: true, evenPrivate: true, wantFragment: "link-local"},
		{addr: "0.0.0.0", refused: true, evenPrivate: true, wantFragment: "unspecified"},
		{addr: "::", refused: true, evenPrivate: true, wantFragment: "unspecified"},
		{addr: "224.0.0.251", refused: true, evenPrivate: true, wantFragment: "multicast"},
		{addr: "ff02::1", refused: true, evenPrivate: true, wantFragment: "multicast"},
		{addr: "255.255.255.255", refused: true, evenPrivate: true, wantFragment: "broadcast"},
		{addr: "240.0.0.1", refused: true, evenPrivate: true, wantFragment: "reserved"},
		{addr: "::ffff:169.254.169.254", refused: true, evenPrivate: true, wantFragment: "standing for 169.254.169.254"},
		{addr: "::ffff:10.0.0.1", refused: true, wantFragment: "standing for 10.0.0.1"},
		{addr: "64:ff9b::a9fe:a9fe", refused: true, evenPrivate: true, wantFragment: "standing for 169.254.169.254"},
		{addr: "2002:a9fe:a9fe::1", refused: true, evenPrivate: true, wantFragment: "standing for 169.254.169.254"},
		{addr: "::ffff:203.0.113.10"},
		{addr: "fd00:ec2::254", refused: true, evenPrivate: true, wantFragment: "AWS's metadata service address, which webhooks never call"},
		{addr: "fd20:ce::254", refused: true, evenPrivate: true, wantFragment: "Google Cloud's metadata service address"},
		{addr: "100.100.100.200", refused: true, evenPrivate: true, wantFragment: "Alibaba Cloud's metadata service address"},
		{addr: "192.0.0.192", refused: true, evenPrivate: true, wantFragment: "Oracle Cloud's metadata service address"},
		{addr: "168.63.129.16", refused: true, evenPrivate: true, wantFragment: "Azure's host (WireServer) address"},
		// Their neighbours are what they were: allow_private opens them.
		{addr: "fd00:ec2::253", refused: true, wantFragment: "unique local"},
		{addr: "fd20:ce::1", refused: true, wantFragment: "unique local"},
		{addr: "100.100.100.199", refused: true, wantFragment: "carrier-grade NAT"},
		{addr: "fe80::1%eth0", refused: true, evenPrivate: true, wantFragment: "link-local"},
		{addr: "::a9fe:a9fe", refused: true, evenPrivate: true, wantFragment: "IPv4-compatible"},
		{addr: "::ffff:0:a9fe:a9fe", refused: true, evenPrivate: true, wantFragment: "standing for 169.254.169.254"},
		{addr: "64:ff9b::6464:64c8", refused: true, evenPrivate: true, wantFragment: "standing for 100.100.100.200, Alibaba"},
		// A local-use NAT64 prefix cut at /48 puts the IPv4 address in bytes 6-7 and 9-10.
		{addr: "64:ff9b:1:a9fe:a9:fe00::", refused: true, evenPrivate: true, wantFragment: "standing for 169.254.169.254"},
		{addr: "64:ff9b:1::a9fe:a9fe", refused: true, evenPrivate: true, wantFragment: "standing for 169.254.169.254"},
		{addr: "64:ff9b:1::cb00:710a"},
	}
	for _, tc := range cases {
		a := netip.MustParseAddr(tc.addr)
		err := (&Guard{}).Check(a)
		if tc.refused {
			var refused *RefusedError
			require.ErrorAs(t, err, &refused, tc.addr)
			assert.Contains(t, err.Error(), tc.wantFragment, tc.addr)
		} else {
			assert.NoError(t, err, tc.addr)
		}
		err = (&Guard{AllowPrivate: true}).Check(a)
		if tc.evenPrivate {
			assert.Error(t, err, "%s with allow_private", tc.addr)
		} else {
			assert.NoError(t, err, "%s with allow_private", tc.addr)
		}
	}
}

// Every metadata address, in every IPv6 form that embeds an IPv4 address, is refused
// with allow_private: by Check, when a name resolves to it, and before a request reaches
// the transport.
func TestGuardNeverReachesMetadataWhateverTheSettings(t *testing.T) {
	v4 := []string{"169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "168.63.129.16"}
	var forms []string
	for _, s := range v4 {
		b := netip.MustParseAddr(s).As4()
		hi, lo := uint16(b[0])<<8|uint16(b[1]), uint16(b[2])<<8|uint16(b[3])
		forms = append(forms, s,
			fmt.Sprintf("::ffff:%s", s), fmt.Sprintf("::ffff:0:%x:%x", hi, lo), fmt.Sprintf("::%x:%x", hi, lo),
			fmt.Sprintf("64:ff9b::%x:%x", hi, lo), fmt.Sprintf("64:ff9b:1::%x:%x", hi, lo),
			fmt.Sprintf("2002:%x:%x::1", hi, lo))
	}
	forms = append(forms, "fd00:ec2::254", "fd20:ce::254", "fe80::a9fe:a9fe", "febf::1")
	resolver := stubResolver{}
	for i, f := range forms {
		resolver[fmt.Sprintf("h%d.example", i)] = []string{"203.0.113.10", f}
	}
	g := Guard{AllowPrivate: true, Resolver: resolver}
	c := New(Options{Guard: g, Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Fatalf("a request for %s reached the transport", r.URL.Host)
		return nil, nil
	})})
	// The network client: the guard resolves through the stub and refuses before dialling.
	network := New(Options{Guard: g})
	for i, f := range forms {
		a := netip.MustParseAddr(f)
		assert.Error(t, g.Check(a), f)
		assert.Error(t, g.control("tcp", netip.AddrPortFrom(a, 443).String(), nil), "the socket check, %s", f)
		host := fmt.Sprintf("h%d.example", i)
		_, err := g.Resolve(context.Background(), host)
		assert.ErrorContains(t, err, "which webhooks never call", f)
		var refused *RefusedError
		for _, client := range []*Client{c, network} {
			_, err = client.Do(context.Background(), Request{Method: "POST", URL: "https://" + host + "/x", Host: host})
			assert.ErrorAs(t, err, &refused, f)
		}
	}
}

func TestGuardResolveRefusesAnyForbiddenAddress(t *testing.T) {
	g := &Guard{Resolver: stubResolver{
		"mixed.example":    {"203.0.113.10", "10.0.0.5"},
		"metadata.example": {"169.254.169.254"},
		"public.example":   {"203.0.113.10", "2001:db8::1"},
	}}
	_, err := g.Resolve(context.Background(), "mixed.example")
	assert.EqualError(t, err, "refused: mixed.example resolves to 10.0.0.5, a private address; settings.webhooks.allow_private: true allows it")
	_, err = g.Resolve(context.Background(), "metadata.example")
	assert.ErrorContains(t, err, "metadata.example resolves to 169.254.169.254, a link-local address (where cloud metadata services answer), which webhooks never call")
	addrs, err := g.Resolve(context.Background(), "public.example")
	require.NoError(t, err)
	assert.Len(t, addrs, 2)
	_, err = g.Resolve(context.Background(), "127.0.0.1")
	assert.ErrorContains(t, err, "loopback")
}

// The Control check refuses a socket to a forbidden address before it connects: a
// loopback listener sees no connection.
func TestGuardControlRefusesBeforeConnecting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	g := &Guard{}
	d := net.Dialer{Timeout: time.Second, Control: g.control}
	_, err = d.Dial("tcp", ln.Addr().String())
	var refused *RefusedError
	require.ErrorAs(t, err, &refused)
	assert.Contains(t, err.Error(), "loopback")
	// Allowed, the same dial connects: the listener is there.
	d.Control = (&Guard{AllowPrivate: true}).control
	c, err := d.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	c.Close()
	assert.Eventually(t, func() bool { return accepted.Load() == 1 }, time.Second, 10*time.Millisecond, "only the allowed dial connected")
}

// testServer is an https server on 127.0.0.1 whose certificate names example.com, and a
// client that reaches it as example.com through a stub resolver.
func testServer(t *testing.T, h http.HandlerFunc, allowPrivate bool) (*httptest.Server, *Client, string) {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	require.NoError(t, err)
	roots := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := New(Options{Guard: Guard{AllowPrivate: allowPrivate, Resolver: stubResolver{"example.com": {"127.0.0.1"}}},
		TLS: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}, UserAgent: "pipeline-action-test"})
	return srv, c, "example.com:" + port
}

func TestDoSendsAndReadsBounded(t *testing.T) {
	var got struct {
		method, path, query, auth, ctype, agent, body string
	}
	_, c, host := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.method, got.path, got.query, got.body = r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b)
		got.auth, got.ctype, got.agent = r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.Header.Get("User-Agent")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, `{"id":"b-9","pad":"`+strings.Repeat("x", MaxResponse)+`"}`)
	}, true)
	resp, err := c.Do(context.Background(), Request{Method: "PUT", URL: "https://" + host + "/builds/a%2Fb?pr=7", Host: host,
		Header: http.Header{"Authorization": {"Bearer s3cret"}}, Body: []byte(`{"pr":7}`), Timeout: 5 * time.Second})
	require.NoError(t, err)
	assert.Equal(t, 202, resp.Status)
	assert.True(t, resp.Truncated)
	assert.Len(t, resp.Body, MaxResponse)
	assert.Equal(t, "PUT", got.method)
	assert.Equal(t, "/builds/a%2Fb", got.path)
	assert.Equal(t, "pr=7", got.query)
	assert.Equal(t, "Bearer s3cret", got.auth)
	assert.Equal(t, "application/json", got.ctype)
	assert.Equal(t, "pipeline-action-test", got.agent)
	assert.Equal(t, `{"pr":7}`, got.body)
}

func TestDoDoesNotFollowRedirects(t *testing.T) {
	var other atomic.Int32
	_, c, host := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/other" {
			other.Add(1)
			return
		}
		http.Redirect(w, r, "/other", http.StatusFound)
	}, true)
	resp, err := c.Do(context.Background(), Request{Method: "GET", URL: "https://" + host + "/start", Host: host})
	require.NoError(t, err)
	assert.Equal(t, http.StatusFound, resp.Status)
	assert.Zero(t, other.Load())
}

// The production default (no allow_private) refuses loopback: the server is never reached.
func TestDoRefusesLoopbackByDefault(t *testing.T) {
	var hits atomic.Int32
	srv, c, host := testServer(t, func(http.ResponseWriter, *http.Request) { hits.Add(1) }, false)
	_, err := c.Do(context.Background(), Request{Method: "POST", URL: "https://" + host + "/x", Host: host})
	var refused *RefusedError
	require.ErrorAs(t, err, &refused)
	assert.Contains(t, err.Error(), "example.com resolves to 127.0.0.1, a loopback address; settings.webhooks.allow_private: true allows it")
	// By address too, with no name to resolve.
	addr := srv.Listener.Addr().String()
	_, err = New(Options{}).Do(context.Background(), Request{Method: "POST", URL: "https://" + addr + "/x", Host: addr})
	require.ErrorAs(t, err, &refused)
	assert.Zero(t, hits.Load())
}

func TestDoTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	_, c, host := testServer(t, func(http.ResponseWriter, *http.Request) { <-release }, true)
	_, err := c.Do(context.Background(), Request{Method: "POST", URL: "https://" + host + "/slow", Host: host, Timeout: 200 * time.Millisecond})
	require.Error(t, err)
	assert.Equal(t, "no answer within 200ms", err.Error())
	var refused *RefusedError
	assert.False(t, errors.As(err, &refused), "a timeout may be tried again")
}

func TestDoRefusesBadRequests(t *testing.T) {
	stub := roundTripFunc(func(*http.Request) (*http.Response, error) {
		t.Fatal("a refused request reached the transport")
		return nil, nil
	})
	c := New(Options{Transport: stub, Allow: []string{"api.example.com"},
		Guard: Guard{Resolver: stubResolver{"api.example.com": {"169.254.169.254"}, "other.example.com": {"203.0.113.10"}}}})
	cases := []struct{ url, host, want string }{
		{"http://api.example.com/x", "api.example.com", "is not https"},
		{"https://api.example.com/x", "other.example.com", `calls "api.example.com", not "other.example.com"`},
		{"https://u:p@api.example.com/x", "api.example.com", "credentials"},
		{"https://other.example.com/x", "other.example.com", "not in settings.webhooks.allow"},
		// Through a stubbed transport too, the guard resolves and checks the host first.
		{"https://api.example.com/x", "api.example.com", "api.example.com resolves to 169.254.169.254"},
	}
	for _, tc := range cases {
		_, err := c.Do(context.Background(), Request{Method: "POST", URL: tc.url, Host: tc.host})
		var refused *RefusedError
		require.ErrorAs(t, err, &refused, tc.url)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestHostAllowed(t *testing.T) {
	allow := []string{"api.example.com", "*.corp.example"}
	assert.True(t, HostAllowed("API.example.com:8443", allow))
	assert.True(t, HostAllowed("ci.corp.example", allow))
	assert.False(t, HostAllowed("corp.example", allow))
	assert.False(t, HostAllowed("evilcorp.example", allow))
	assert.True(t, HostAllowed("anything.example", nil))
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
