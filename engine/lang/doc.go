// Package lang is the pipeline language's model: the config with the positions it was
// written at, the errors that point into it, and expressions and templates compiled
// against the names they may read. It knows nothing of runs or facts: it declares what
// an expression may read and what names a run's definition, and the evaluator (package
// engine) provides them; package lang/load reads and validates a config into it.
package lang
