// Package stats turns the audit trail of a repository's runs into a report per pipeline:
// runs started and finished, time per stage, who the runs waited for, loops, agent errors
// and escalations; and prints it as text, JSON or Markdown with Mermaid charts.
package stats
