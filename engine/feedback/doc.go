// Package feedback is what people said that the pipelines hand on: the review bodies and
// comments a human stage counted (its outputs) and the changes reviewers ask for, read
// from the facts, bounded, for templates, agents' context and notifications.
package feedback
