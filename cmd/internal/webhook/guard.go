package webhook

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// The address guard. A webhook's host is written in the config, but what it resolves to
// is up to DNS: a name can resolve to 127.0.0.1, to a runner's private network or to the
// cloud metadata service at 169.254.169.254. So every address is checked where the
// connection is made, after resolution: the guard resolves the host itself, refuses when
// any address it gets is forbidden, dials only the addresses it checked, and checks the
// address of the socket again just before it connects (Control), so no packet leaves for
// a forbidden address.

// Resolver resolves host names; *net.Resolver is one.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Guard decides which addresses a call may reach.
type Guard struct {
	// AllowPrivate lets calls reach loopback, private and shared (CGNAT) addresses
	// (settings.webhooks.allow_private). Other special addresses, and cloud metadata
	// services inside those ranges, stay refused.
	AllowPrivate bool
	// Resolver resolves host names; nil is net.DefaultResolver.
	Resolver Resolver
}

// RefusedError is a call the guard, or the call's own rules, would not make. Calling
// again cannot help.
type RefusedError struct{ Why string }

func (e *RefusedError) Error() string { return "refused: " + e.Why }

type prefixClass struct {
	prefix  netip.Prefix
	class   string
	private bool // allowed by AllowPrivate
}

var classes = func() []prefixClass {
	list := []struct {
		cidr, class string
		private     bool
	}{
		// Cloud metadata services come first: some answer inside ranges allow_private
		// opens (a unique local or a shared address), and a webhook that reached one
		// could read the runner's cloud credentials.
		{"fd00:ec2::254/128", "AWS's metadata service address", false},
		{"fd20:ce::254/128", "Google Cloud's metadata service address", false},
		{"100.100.100.200/32", "Alibaba Cloud's metadata service address", false},
		{"192.0.0.192/32", "Oracle Cloud's metadata service address", false},
		{"168.63.129.16/32", "Azure's host (WireServer) address", false},
		{"0.0.0.0/8", "an unspecified (\"this network\") address", false},
		{"10.0.0.0/8", "a private address", true},
		{"100.64.0.0/10", "a shared (carrier-grade NAT) address", true},
		{"127.0.0.0/8", "a loopback address", true},
		{"169.254.0.0/16", "a link-local address (where cloud metadata services answer)", false},
		{"172.16.0.0/12", "a private address", true},
		{"192.0.0.0/24", "an IETF protocol address", false},
		{"192.168.0.0/16", "a private address", true},
		{"198.18.0.0/15", "a benchmarking address", false},
		{"224.0.0.0/4", "a multicast address", false},
		{"240.0.0.0/4", "a reserved address", false},
		{"::/128", "an unspecified address", false},
		{"::1/128", "a loopback address", true},
		{"::/96", "an IPv4-compatible address", false},
		{"100::/64", "a discard address", false},
		{"2001::/32", "a Teredo address", false},
		{"fc00::/7", "a private (unique local) address", true},
		{"fe80::/10", "a link-local address", false},
		{"fec0::/10", "a site-local address", false},
		{"ff00::/8", "a multicast address", false},
	}
	out := make([]prefixClass, len(list))
	for i, c := range list {
		out[i] = prefixClass{netip.MustParsePrefix(c.cidr), c.class, c.private}
	}
	return out
}()

var (
	nat64        = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local   = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour    = netip.MustParsePrefix("2002::/16")
	v4Translated = netip.MustParsePrefix("::ffff:0:0:0/96")
)

// embedded returns the IPv4 addresses an IPv6 address may stand for (IPv4-mapped and
// -translated, NAT64, 6to4), none if it is none of those. A local-use NAT64 prefix
// (64:ff9b:1::/48) may be cut at any length RFC 6052 allows from /48 on, which puts the
// IPv4 address at different places; the guard cannot know which one the network's
// translator reads, so every place whose suffix is zero, as RFC 6052 requires, is a
// candidate.
func embedded(a netip.Addr) []netip.Addr {
	if a.Is4In6() {
		return []netip.Addr{a.Unmap()}
	}
	b := a.As16()
	at := func(i, j, k, l int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[j], b[k], b[l]}) }
	switch {
	case nat64.Contains(a), v4Translated.Contains(a):
		return []netip.Addr{at(12, 13, 14, 15)}
	case nat64Local.Contains(a):
		zeroFrom := func(i int) bool { return bytes.Count(b[i:], []byte{0}) == 16-i }
		var out []netip.Addr
		for _, c := range []struct {
			i, j, k, l, suffix int
		}{{6, 7, 9, 10, 11}, {7, 9, 10, 11, 12}, {9, 10, 11, 12, 13}} {
			if zeroFrom(c.suffix) {
				out = append(out, at(c.i, c.j, c.k, c.l))
			}
		}
		return append(out, at(12, 13, 14, 15))
	case sixToFour.Contains(a):
		return []netip.Addr{at(2, 3, 4, 5)}
	}
	return nil
}

// Check says why a call may not reach address a, or nil.
func (g *Guard) Check(a netip.Addr) error {
	return g.refuse(a.String()+" is", a)
}

// refuse says why a call may not reach a, or nil; subject starts the sentence.
func (g *Guard) refuse(subject string, a netip.Addr) error {
	class, private := classify(a)
	switch {
	case class == "" || private && g.AllowPrivate:
		return nil
	case private:
		return &RefusedError{Why: fmt.Sprintf("%s %s; settings.webhooks.allow_private: true allows it", subject, class)}
	}
	return &RefusedError{Why: fmt.Sprintf("%s %s, which webhooks never call", subject, class)}
}

// classify names the kind of special address a is ("a private address"), and whether
// allow_private allows it; "" for an ordinary public address.
func classify(a netip.Addr) (class string, private bool) {
	a = a.WithZone("")
	if v4s := embedded(a); v4s != nil {
		return classifyEmbedded(v4s)
	}
	if a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return "the broadcast address", false
	}
	for _, c := range classes {
		if c.prefix.Contains(a) {
			return c.class, c.private
		}
	}
	return "", false
}

// classifyEmbedded classifies an IPv6 address by the IPv4 addresses it may stand for: the
// strictest of them decides (one never called refuses it even with allow_private).
func classifyEmbedded(v4s []netip.Addr) (class string, private bool) {
	for _, v4 := range v4s {
		c, p := classify(v4)
		if c == "" || (class != "" && p) {
			continue // public, or no stricter than what was found
		}
		class, private = fmt.Sprintf("an address standing for %s, %s", v4, c), p
		if !p {
			break
		}
	}
	return class, private
}

// Resolve returns the addresses of host, each checked; any forbidden address refuses the
// whole host (a name that resolves to a public and a private address is refused).
func (g *Guard) Resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if err := g.refuse(host+" is", a); err != nil {
			return nil, err
		}
		return []netip.Addr{a}, nil
	}
	r := g.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolving %s: no address", host)
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, ia := range addrs {
		a, ok := netip.AddrFromSlice(ia.IP)
		if !ok {
			return nil, &RefusedError{Why: fmt.Sprintf("%s resolves to %q, not an IP address", host, ia.IP)}
		}
		a = a.Unmap() // a 4-byte address read as 16 bytes
		if err := g.refuse(fmt.Sprintf("%s resolves to %s,", host, a), a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// control is a net.Dialer's Control: it checks the address a socket is about to connect
// to, the last moment before a packet leaves.
func (g *Guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Why: fmt.Sprintf("connecting to %q, which is not an address", address)}
	}
	return g.refuse("connecting to "+ap.Addr().String()+":", ap.Addr())
}

// DialContext resolves and checks addr's host, then dials the checked addresses in turn
// with dialer (its Control set to check each socket again).
func (g *Guard) DialContext(dialer *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := *dialer
	d.Control = g.control
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		addrs, err := g.Resolve(ctx, host)
		if err != nil {
			return nil, err
		}
		var first error
		for _, a := range addrs {
			conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
			if err == nil {
				return conn, nil
			}
			if first == nil {
				first = err
			}
		}
		return nil, first
	}
}
