package load_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
)

// realisticConfig is a config of n pipelines of m stages each, shaped like the
// examples: agents and a group, a trigger with `if:`, a context template, and stages
// cycling through an agent, a gate of ci_status and expression checks, a reviewing
// agent with a `condition:` and a revise loop, a human approval with a notification
// template, and a gate over labels. The gates' expressions and conditions are the
// same text in every pipeline, as configs copied from one template are; the human
// stages share their timeout handling through a YAML anchor.
func realisticConfig(n, m int) []byte {
	var b strings.Builder
	b.WriteString(`version: 1
agents:
  coder: {dispatch: workflow, workflow: agent-code.yml}
  reviewer: {dispatch: repository_dispatch, event_type: review}
groups:
  maintainers: {users: [alice, bob], teams: [acme/maintainers]}
pipelines:
`)
	for i := range n {
		fmt.Fprintf(&b, `  p%d:
    description: Pipeline %d, from a label to a reviewed change
    trigger:
      event: pull_request.labeled
      conditions: {label: p%d}
      if: "trigger.pull_request.draft == false && github.pr.number > 0"
    on_events:
      pull_request.closed: {action: cancel}
    context:
      pr_number: "{{ trigger.pull_request.number }}"
    stages:
`, i, i, i)
		for j := range m {
			next := fmt.Sprintf("s%d", j+1)
			if j == m-1 {
				next = "complete"
			}
			writeStage(&b, i, j, next)
		}
		b.WriteString(`    on_complete:
      - comment: {target: pr, message: "Done with PR #{{ context.pr_number }}: {{ stages.s0.outputs.summary }}"}
    on_error:
      - label: needs-human
`)
	}
	return []byte(b.String())
}

// writeStage writes stage j of pipeline i, going on to next.
func writeStage(b *strings.Builder, i, j int, next string) {
	id := fmt.Sprintf("s%d", j)
	switch j % 5 {
	case 0:
		fmt.Fprintf(b, `      - id: %s
        type: agent
        agent: coder
        action: implement
        timeout: 1h
        on_complete: %s
`, id, next)
	case 1:
		fmt.Fprintf(b, `      - id: %s
        type: gate
        conditions:
          - check: ci_status
          - check: expr
            expr: "len(stages.s0.outputs.files) <= 40"
            message: "too many files: {{ len(stages.s0.outputs.files) }}"
          - check: expr
            expr: "none(stages.s0.outputs.files, .operation == 'delete')"
            message: "a file is deleted"
        on_pass: %s
        on_fail: fail
`, id, next)
	case 2:
		fmt.Fprintf(b, `      - id: %s
        type: agent
        agent: reviewer
        action: review
        condition: "context.pr_number != null && 'skip-review' not in github.pr.labels"
        timeout: 30m
        on_approve: %s
        on_reject: fail
        on_revise:
          goto: s0
          max_iterations: 3
          then: fail
          context:
            review_feedback: "{{ stages.%s.outputs.issues }}"
`, id, next, id)
	case 3:
		timeout := "*escalate"
		if i == 0 && j == 3 {
			timeout = "&escalate {label: needs-attention, then: cancel}"
		}
		fmt.Fprintf(b, `      - id: %s
        type: human
        wait_for: approval
        from: maintainers
        count: 1
        condition: "stages.s0.outputs.risk == 'high'"
        notify:
          on_enter: "PR #{{ context.pr_number }} needs approval: {{ stages.s0.outputs.reason }}"
        timeout: 72h
        on_timeout: %s
        on_complete: %s
`, id, timeout, next)
	default:
		fmt.Fprintf(b, `      - id: %s
        type: gate
        conditions:
          - check: label_present
            label: ready
          - check: expr
            expr: "stages.s0.outputs.loc <= 300 || ('large' | has_label)"
            message: "LOC limit exceeded"
        on_pass: %s
        on_fail: fail
`, id, next)
	}
}

// TestLoadRealisticConfigs checks that the benchmarks' configs load in full, the
// larger one although it has more than 100,000 nodes.
func TestLoadRealisticConfigs(t *testing.T) {
	for _, size := range [][2]int{{50, 10}, {200, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			files := []load.SourceFile{{Path: ".github/pipelines.yaml", Src: realisticConfig(size[0], size[1])}}
			cfg, err := engine.LoadFiles(files, gates.Default())
			require.NoError(t, err)
			require.Len(t, cfg.Pipelines, size[0])
			last := cfg.Pipelines[size[0]-1]
			require.Len(t, last.Stages, size[1])
			assert.NotNil(t, last.Trigger.If)
			assert.Equal(t, time.Hour, last.Stages[0].Timeout)
			assert.Empty(t, cfg.Warnings)
		})
	}
}

// benchLoad loads src with load (engine.LoadFiles as validate does, or
// engine.LoadFilesToRun as an invocation does), b.N times.
func benchLoad(b *testing.B, src []byte, loadFiles func([]load.SourceFile, engine.GateRegistry) (*lang.Config, error)) {
	files := []load.SourceFile{{Path: ".github/pipelines.yaml", Src: src}}
	if _, err := loadFiles(files, gates.Default()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loadFiles(files, gates.Default()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad50x10(b *testing.B)  { benchLoad(b, realisticConfig(50, 10), engine.LoadFiles) }
func BenchmarkLoad200x20(b *testing.B) { benchLoad(b, realisticConfig(200, 20), engine.LoadFiles) }

func BenchmarkLoadToRun50x10(b *testing.B) {
	benchLoad(b, realisticConfig(50, 10), engine.LoadFilesToRun)
}

// BenchmarkYAMLParse50x10 parses the config of BenchmarkLoadToRun50x10 into yaml.v3's nodes
// and does nothing else: the floor under a load, which reads positions from those nodes.
func BenchmarkYAMLParse50x10(b *testing.B) {
	src := realisticConfig(50, 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var n yaml.Node
		if err := yaml.Unmarshal(src, &n); err != nil {
			b.Fatal(err)
		}
	}
}
