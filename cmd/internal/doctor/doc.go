// Package doctor is the doctor command: it checks a live repository (config, token scopes,
// workflows, settings) and writes nothing.
//
// It stands apart from the command line so that the simulator's doctor step runs it too.
package doctor
