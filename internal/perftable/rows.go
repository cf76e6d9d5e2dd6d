package main

// A row is one figure of the README's performance table. Exactly one of bench, example
// and measure says where its number comes from; add a row here, then run
// `go run ./internal/perftable` to measure it into the README.
type row struct {
	// figure is what is measured, as a reader asks it (no "|").
	figure string
	// goal is the number the figure must stay within; "—" when none is set. A benchmark's
	// is about 2.5 times what it measured on the development machine, so that a row past
	// its goal is a change to look at rather than the machine's noise.
	goal string
	// bench is a benchmark: its package's directory and its name, "engine/BenchmarkX",
	// measured with go test -bench (the median of -count runs).
	bench string
	// example is a directory under examples/, played with simulate --stats (its total).
	example string
	// measure names a measurement of measures (measure.go).
	measure string
	// read says how to read the measured number.
	read string
}

const (
	readBench   = "time and allocations per op, median of the runs"
	readExample = "API calls of the scenario, `simulate --stats` total"
)

var rows = []row{
	{figure: "one event on a PR waiting at a gate (evaluate four checks, find nothing changed)", goal: "≤ 50 µs",
		bench: "engine/BenchmarkStepWaitingGate", read: readBench},
	{figure: "the event that passes the gate and asks for the merge (the merge guard evaluates the gates again)", goal: "≤ 50 µs",
		bench: "engine/BenchmarkStepToMerge", read: readBench},
	{figure: "an agent's report to one of three review branches of a parallel stage", goal: "≤ 150 µs",
		bench: "engine/BenchmarkStepParallelReport", read: readBench},
	{figure: "an event on a PR whose run waits for its sub-pipeline's agent (both runs evaluated)", goal: "≤ 120 µs",
		bench: "engine/BenchmarkStepSubPipelineWaiting", read: readBench},
	{figure: "an event on a PR on which a pipeline ran 5,000 times", goal: "—",
		bench: "state/BenchmarkStepAfterManyRuns", read: readBench},
	{figure: "read the state back from the comment (every event)", goal: "≤ 200 µs",
		bench: "state/BenchmarkDecode", read: readBench},
	{figure: "render the comment and encode the state (events that change something)", goal: "≤ 1 ms",
		bench: "state/BenchmarkBody", read: readBench},
	{figure: "refuse a 276 KB config aliasing 400 stages into thousands of pipelines", goal: "≤ 50 ms",
		bench: "engine/lang/load/BenchmarkLoadAliasBomb", read: readBench},
	{figure: "the image's binary, linux/amd64", goal: "≤ 15 MiB",
		measure: "image size", read: "cmd/pipeline-action-image built as the release builds it; gzipped at the fastest level, as ko compresses the layer a job pulls"},
	{figure: "the image's binary starting (`version`)", goal: "≤ 10 ms",
		measure: "image start", read: "the fastest of 100 starts on this machine, then their median (a loaded machine moves the median)"},
	{figure: "example `auto-merge`: opened → CI → approved → merged", goal: "8 GraphQL, 6 REST", example: "auto-merge", read: readExample},
	{figure: "example `agent-verdict-loop`", goal: "—", example: "agent-verdict-loop", read: readExample},
	{figure: "example `cross-repo-feature`", goal: "—", example: "cross-repo-feature", read: readExample},
	{figure: "example `doctor`", goal: "—", example: "doctor", read: readExample},
	{figure: "example `events-together`: four events of one PR at once, then four of three PRs", goal: "—", example: "events-together",
		read: readExample + "; its events race, so the writes that lose and are retried vary from run to run"},
	{figure: "example `feature-dev`", goal: "—", example: "feature-dev", read: readExample},
	{figure: "example `five-agents`", goal: "—", example: "five-agents", read: readExample},
	{figure: "example `human-timeout`", goal: "—", example: "human-timeout", read: readExample},
	{figure: "example `issue-to-pr`", goal: "—", example: "issue-to-pr", read: readExample},
	{figure: "example `merge-behind-update`", goal: "—", example: "merge-behind-update", read: readExample},
	{figure: "example `merge-queue-required`", goal: "—", example: "merge-queue-required", read: readExample},
	{figure: "example `merge-refused-settings`", goal: "—", example: "merge-refused-settings", read: readExample},
	{figure: "example `merge-unknown-mergeability`", goal: "—", example: "merge-unknown-mergeability", read: readExample},
	{figure: "example `parallel-review`", goal: "—", example: "parallel-review", read: readExample},
	{figure: "example `pr-lifecycle`", goal: "—", example: "pr-lifecycle", read: readExample},
	{figure: "example `push-mid-review`", goal: "—", example: "push-mid-review", read: readExample},
	{figure: "example `shared-variables`", goal: "—", example: "shared-variables", read: readExample},
	{figure: "example `state-branch-deleted`", goal: "—", example: "state-branch-deleted", read: readExample},
	{figure: "example `state-branch-protected`", goal: "—", example: "state-branch-protected", read: readExample},
	{figure: "example `sub-pipeline`", goal: "—", example: "sub-pipeline", read: readExample},
	{figure: "example `two-priorities`", goal: "—", example: "two-priorities", read: readExample},
	{figure: "example `verdict-loop`", goal: "—", example: "verdict-loop", read: readExample},
	{figure: "example `webhook-notify`", goal: "—", example: "webhook-notify", read: readExample},
	{figure: "example `webhook-private-refused`", goal: "—", example: "webhook-private-refused", read: readExample},
}
