// Package manual decides the starts people ask for: a comment a pipeline's trigger waits
// for, `/pipeline start`, and a workflow_dispatch naming a pipeline and a subject.
// Its functions read the evaluation's facts and state and change nothing.
package manual
