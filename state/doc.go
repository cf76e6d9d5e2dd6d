// Package state keeps what pipeline-action remembers about a subject: the codec of
// the hidden marker in the state comment, the rendered status comment, and the
// stores that load and save state with optimistic concurrency.
package state
