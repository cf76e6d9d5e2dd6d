// Package cli is the command line of pipeline-action: it parses the command and its flags,
// prints help and the version, and runs validate, graph and status itself; run, report and
// sweep are one invocation of package run, doctor is package doctor and simulate package sim.
package cli
