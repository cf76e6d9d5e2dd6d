// Package agentreview tells when the verdict an agent gave by its review no longer stands:
// the review was dismissed.
package agentreview
