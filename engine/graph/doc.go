// Package graph draws a pipeline, and where a run of it stands, as a Mermaid flowchart.
package graph
