// Package httppoll arms the poll deadline of a gate with an `http` check: no event says
// that the answer of a url changed, so the sweep looks again at every poll.
package httppoll
