// Package guardwalk is the part of the merge guard that needs nothing but the pipeline as
// written and a verdict per stage: the walk from a pipeline's start to its merge (or its
// end, for a sub-pipeline), the join of a parallel stage's branches as the guard counts
// it, and the records the guard reads of a run below the one that merges. Package engine
// judges each stage (gates and human stages on today's facts, sub-pipelines recursively)
// and acts on what the walk finds.
package guardwalk
