// Package webhook makes the HTTP calls of webhook stages. It is not a GitHub client: it
// calls whatever host a config writes, so it refuses what a call must never do — go to
// a scheme other than https, to a host other than the one written, to a forbidden address
// (see Guard), follow a redirect, or read an unbounded answer.
package webhook
