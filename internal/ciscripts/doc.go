// Package ciscripts holds tests over the scripts of .ci: what they lint, and that they say so
// before they install anything. It has no code of its own.
package ciscripts
