// Package settle settles effects: it records the outcomes of performed effects, and
// reconciles the write-ahead intents found in the state from the facts.
//
// A merge or a posted comment cannot be undone, and GitHub does not deduplicate it: two
// invocations that decide it at the same moment would both perform it. So the engine
// first writes it into the state as intended (Run.Intents, Intend), and the caller saves
// that state with compare-and-swap before it performs the effect: only the invocation
// whose save won performs it (Effect.WriteAhead). Its outcome then clears the intent
// (Outcome). An intent found on load is reconciled from the facts before anything else
// happens (Reconcile): the pull request is merged, or the comment carrying the effect's
// marker exists → it was performed; otherwise it is in flight until Until, and no
// invocation asks for it again before then; after that the invocation that performed it
// has ended without recording an outcome, and the effect is asked for again only under a
// rewritten intent (Try + 1), saved first like the first one. Adding and removing labels
// is idempotent on GitHub and has no intent. A lost race so costs one read and one
// commit, never a double effect.
//
// The package sees the evaluation only through Kernel.
package settle
