// Package faketest starts the fake GitHub for a Go test. It lives apart from ghfake so that
// the binaries embedding the fake link no test machinery.
package faketest
