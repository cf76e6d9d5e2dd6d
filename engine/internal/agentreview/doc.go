// Package agentreview finds an agent's own pull request review that gives its stage's
// verdict, and turns it into the report of the stage's live attempt.
package agentreview
