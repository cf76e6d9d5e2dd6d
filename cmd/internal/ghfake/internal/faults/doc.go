// Package faults is the fake GitHub's fault injection: the faults tests and scenarios queue for
// requests (Fault, Queue), the answers GitHub gives instead of serving them, and GitHub's
// secondary rate limits on content-creating requests.
package faults
