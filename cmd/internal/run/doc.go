// Package run is one invocation of the action: it routes the event that started the job,
// then reads each subject's state, lets the engine decide, performs the effects against
// GitHub and writes the state back (the run, report and sweep commands).
//
// It talks to GitHub only through ghapi and never imports the fake, so the action binary
// links no test machinery.
package run
