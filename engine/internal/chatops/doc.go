// Package chatops is what people tell the action in comments on a subject: the
// `/pipeline` commands. `escalate` stops a run for a person: the run is `escalated` (not
// final) and moves again only on a command in a comment on its subject:
//
//	/pipeline approve          counts as the commenter's approval for a human stage
//	/pipeline retry            a new attempt of the current stage
//	/pipeline skip             on to the current stage's next stage
//	/pipeline cancel           cancels the run
//	/pipeline unblock [stage]  an escalated run goes on where it stopped (the same attempt), or at stage
//	/pipeline restart [stage]  starts again at stage (default: the first)
//	/pipeline status           replies with where the runs are
//	/pipeline start <pipeline> starts a pipeline on the subject
//	/pipeline enable <pipeline>  lets a pipeline's trigger start it on the subject (package dormant)
//	/pipeline disable <pipeline> keeps its trigger from starting it there
//
// Only people with settings.chatops.permission (default write) — and, when
// settings.chatops.from is set, members of one of its groups — may use them, judged on
// the facts read today (package authority), never on what the state says was allowed
// once; anyone else gets a one-line reply saying why, and nothing moves. Commands act on
// the subject's runs that are not finished; a command is acted on once
// (State.CommandsSeen), and commands written before the oldest of those runs started are
// not acted on at all.
//
// The commands are one table (commands), in the order the help shows them. The kernel
// calls Comments once per event, Dispatch for a workflow_dispatch that names a pipeline,
// and Settled for each outcome of a performed effect; the unit sees the kernel through
// Kernel only, and every move of a run goes through it.
package chatops
