// Package snapshot copies and compares the evaluator's state field by field: Step works on
// a copy of the state it is given, and tells whether an event changed anything by
// comparing, neither of which may cost more as a run's history grows.
package snapshot
