// Package lang is the pipeline language: the config model, the YAML loader that keeps
// positions, the validation passes and the compilation of expressions and templates.
// It knows nothing of runs or facts: it declares what an expression may read and what
// names a run's definition, and the evaluator (package engine) provides them.
package lang
