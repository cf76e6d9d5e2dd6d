// Package deadline is the table of deadline kinds: the absolute times a run's current
// stage waits for (its timeout, the end of a delay, a delay's next poll, a human stage's
// next reminder, GitHub's mergeability, a rate limit's end). They are armed when the
// stage is entered (Table.Arm), kept in StageRun.Deadlines, and handled by any evaluation
// whose now is at or past them (Table.Due) — an event, or the sweep that reads
// Run.NextDeadline from the state branch's index. A deadline leaves the list when it is
// acted on, in the same saved state as what it did, so each is acted on once.
//
// Each kind is one entry of the table: what arms it, what it does when due. The kinds a
// stage type keeps for itself are its own (Kernel.OwnDue). The package sees the
// evaluation only through Kernel.
package deadline
