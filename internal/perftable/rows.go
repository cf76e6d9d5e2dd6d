package main

// A row is one figure of the performance table of docs/performance.md. Exactly one of bench, example,
// scenario and measure says where its number comes from; add a row here, then run
// `go run ./internal/perftable` to measure it into docs/performance.md.
type row struct {
	// figure is what is measured, as a reader asks it (no "|").
	figure string
	// goal is the number the figure must stay within; "—" when none is set.
	goal string
	// bench is a benchmark: its package's directory and its name, "engine/BenchmarkX", or
	// one of its sub-benchmarks, "state/BenchmarkX/1000", measured with go test -bench
	// (the median of -count runs).
	bench string
	// metrics are the units of the benchmark's line shown, in order: "ns/op" is its time,
	// others are what it reports with b.ReportMetric; none shows time and allocations.
	metrics []string
	// benchtime and count replace the command's -benchtime and -count for this benchmark
	// (a benchmark whose one op takes seconds runs once).
	benchtime string
	count     int
	// example is a directory under examples/, played with simulate --stats (its total).
	example string
	// scenario is a scenario's directory from the module's root, played with simulate
	// --stats: its requests and content-creating writes.
	scenario string
	// changes is how many state changes the scenario makes, to give its writes per change.
	changes int
	// measure names a measurement of measures.
	measure string
	// read says how to read the measured number.
	read string
}

const (
	readBench    = "time and allocations per op, median of the runs"
	readExample  = "API calls of the scenario, `simulate --stats` total"
	readScenario = "the requests and content-creating writes (REST writes, GraphQL mutations) `simulate --stats` counts"
)

var rows = []row{
	{figure: "a PR's lifecycle opened → labelled → approved → CI → merged, with the state branch (5 state changes)",
		goal: "≤ 12 requests, ≤ 1.5 content writes per state change; ≤ 8 in a row, ≤ 3 on the merge event", scenario: "cmd/internal/sim/testdata/scenarios/lifecycle-cost",
		changes: 5, read: readScenario},
	{figure: "one event on a PR waiting at a gate (evaluate four checks, find nothing changed)", goal: "≤ 50 µs",
		bench: "engine/BenchmarkStepWaitingGate", read: readBench},
	{figure: "the event that passes the gate and asks for the merge (the merge guard evaluates the gates again)", goal: "≤ 50 µs",
		bench: "engine/BenchmarkStepToMerge", read: readBench},
	{figure: "one event on a run waiting at gate 1 of 100", goal: "≤ 50 µs",
		bench: "engine/BenchmarkStepWaitingAtGate1Of100", read: readBench},
	{figure: "one event on a run waiting at gate 1 of 10", goal: "—",
		bench: "engine/BenchmarkStepWaitingAtGate1Of10", read: readBench},
	{figure: "one event on a run waiting at gate 1 of 1,000", goal: "within 1.5× gate 1 of 10",
		bench: "engine/BenchmarkStepWaitingAtGate1Of1000", read: readBench},
	{figure: "one event on a run waiting at gate 1 of 1,000, as a ratio to gate 1 of 10, measured together with the collector held off", goal: "≤ 1.5×",
		measure: "gate 1000 to 10", read: "the median times of the two benchmarks run in one go test with GOGC=off and GOMEMLIMIT=64MiB, and their ratio: one event's process collects nothing during its step, while a benchmark loop makes the collector mark the live config again and again"},
	{figure: "one event on a run waiting at gate 100 of 100", goal: "≤ 50 µs",
		bench: "engine/BenchmarkStepWaitingAtGate100Of100", read: readBench},
	{figure: "one event on which 1,000 gates all hold (then the merge guard)", goal: "≤ 10 ms",
		bench: "engine/BenchmarkStepGatesAllHold1000", read: readBench},
	{figure: "one event on which 3,000 gates all hold (then the merge guard)", goal: "linear beyond 1,000: ≤ 30 ms",
		bench: "engine/BenchmarkStepGatesAllHold3000", read: readBench},
	{figure: "the state file of a run through 1,000 gates of three checks", goal: "≤ 64 KB",
		bench: "state/BenchmarkThousandGateStateFile", metrics: []string{"bytes/file"}, read: "bytes of the encoded file"},
	{figure: "the report that enters a parallel stage of 20 branches", goal: "≤ 1 ms",
		bench: "engine/BenchmarkStepParallelEnter20", read: readBench},
	{figure: "an event that changes nothing while a parallel stage waits for 50 sub-pipeline runs", goal: "≤ 0.5 ms",
		bench: "engine/BenchmarkStepSubPipelineChildren50Waiting", read: readBench},
	{figure: "an agent's report to one of three review branches of a parallel stage", goal: "—",
		bench: "engine/BenchmarkStepParallelReport", read: readBench},
	{figure: "an event on a PR whose run waits for its sub-pipeline's agent (both runs evaluated)", goal: "—",
		bench: "engine/BenchmarkStepSubPipelineWaiting", read: readBench},
	{figure: "an event on a PR on which a pipeline ran 5,000 times", goal: "—",
		bench: "state/BenchmarkStepAfterManyRuns", read: readBench},
	{figure: "read the state back from the comment (every event)", goal: "—",
		bench: "state/BenchmarkDecode", read: readBench},
	{figure: "render the comment and encode the state (events that change something)", goal: "—",
		bench: "state/BenchmarkBody", read: readBench},
	{figure: "validate a config of 50 pipelines × 10 stages", goal: "≤ 10 ms",
		bench: "engine/lang/load/BenchmarkLoad50x10", read: readBench},
	{figure: "load a config of 50 pipelines × 10 stages for an invocation", goal: "≤ 10 ms",
		bench: "engine/lang/load/BenchmarkLoadToRun50x10", read: readBench},
	{figure: "parse that config with yaml.v3 alone, into the nodes a load reads positions from (the floor under a load)", goal: "—",
		bench: "engine/lang/load/BenchmarkYAMLParse50x10", read: readBench},
	{figure: "load a config of 50 pipelines × 10 stages, as a ratio to yaml.v3's parse of it (its floor), measured together", goal: "—",
		measure: "load ratio", read: "the median times of the two benchmarks run in one go test, and their ratio: it moves less with the machine than either"},
	{figure: "validate a config of 200 pipelines × 20 stages", goal: "it loads",
		bench: "engine/lang/load/BenchmarkLoad200x20", read: readBench},
	{figure: "refuse a 276 KB config aliasing 400 stages into thousands of pipelines", goal: "—",
		bench: "engine/lang/load/BenchmarkLoadAliasBomb", read: readBench},
	{figure: "a sweep with every one of 1,000 open runs due (sweep_budget 1000, default sweep_writes)",
		goal: "≤ 80 content writes a sweep (GitHub allows 80 a minute, 500 an hour)", bench: "cmd/internal/run/BenchmarkSweepEverythingDue",
		metrics: []string{"writes/sweep", "subjects-left", "largest-shard-bytes"}, benchtime: "1x",
		read: "content writes of the sweep, the subjects it leaves due for the next, the largest index shard after it"},
	{figure: "the index one save writes at 1,000 open runs (a deadline moved)", goal: "— (sharded)",
		bench: "state/BenchmarkIndexWrite/1000", metrics: []string{"index-bytes/save", "largest-index-file-bytes"},
		read: "bytes of index the save writes, and the largest index file"},
	{figure: "the index one save writes at 3,000 open runs (a deadline moved)", goal: "— (sharded)",
		bench: "state/BenchmarkIndexWrite/3000", metrics: []string{"index-bytes/save", "largest-index-file-bytes"},
		read: "bytes of index the save writes, and the largest index file"},
	{figure: "a 1,200-step scenario on one PR in simulate", goal: "≤ 60 s",
		bench: "cmd/internal/sim/BenchmarkLongScenario/steps=1200", metrics: []string{"ns/op"}, benchtime: "1x", count: 1,
		read: "one run of the benchmark (rounds of push, failing check, approval, comment; then the merge)"},
	{figure: "the image's binary, linux/amd64", goal: "≤ 15 MiB",
		measure: "image size", read: "cmd/pipeline-action-image built as the release builds it; gzipped at the fastest level, as ko compresses the layer a job pulls"},
	{figure: "the image's binary, linux/arm64", goal: "≤ 15 MiB",
		measure: "image size arm64", read: "as for linux/amd64"},
	{figure: "the CLI's binary, linux/amd64", goal: "—",
		measure: "cli size", read: "cmd/pipeline-action built as the release builds it; gzipped at the fastest level"},
	{figure: "the CLI's binary, linux/arm64", goal: "—",
		measure: "cli size arm64", read: "as for linux/amd64"},
	{figure: "the image's binary starting (`version`)", goal: "≤ 10 ms",
		measure: "image start", read: "the fastest of 100 starts on this machine, then their median (a loaded machine moves the median); beside it an empty Go program built alike, the machine's own cost, and the ratio of the fastest; then a program that links only the libraries the action must use (go-github, githubv4, go-githubactions, expr, yaml.v3) and does nothing: the floor the goal sits under"},
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
	{figure: "example `keep-up-to-date`: three pull requests merged one after another, each next one brought up to date as main moves", goal: "—", example: "keep-up-to-date", read: readExample},
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
