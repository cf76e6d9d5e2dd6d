// Package core is what every part of the evaluator shares: the state and its runs, the
// facts, effects and their intents, deadlines, and Eval, one evaluation of an input, with
// the operations the stage types and the step loop of package engine build on (moving a
// run, finishing it, emitting effects, the ledger, the env of expressions). It imports
// nothing of engine, so that engine and the stage types can import it.
package core
