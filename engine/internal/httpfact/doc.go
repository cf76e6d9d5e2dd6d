// Package httpfact holds the answers of the GETs that `http` checks make: the shell
// fetches each url once per invocation and the check judges the answer, purely.
// It is a leaf package so that engine and core only name its types.
package httpfact
