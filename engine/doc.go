// Package engine is the pure domain of pipeline-action: the facts about a subject, runs,
// and Step, which turns (config, state, input, facts, now) into (new state, effects)
// without any I/O. The config it evaluates is the language of package engine/lang.
package engine
