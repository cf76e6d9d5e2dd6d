package load

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// aliasBomb is a config of about size bytes: pipeline p0 defines 400 stages under
// anchor &big and every other pipeline runs `stages: *big`. Without a budget the
// loader builds 400 stages for every one of them.
func aliasBomb(size int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\npipelines:\n  p0:\n    trigger: {event: pull_request.opened}\n    stages: &big\n")
	for i := range 400 {
		next := fmt.Sprintf("s%d", i+1)
		if i == 399 {
			next = "complete"
		}
		fmt.Fprintf(&b, "      - {id: s%d, type: gate, conditions: [{check: ci_status}], on_pass: %s, on_fail: fail}\n", i, next)
	}
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  p%d:\n    trigger: {event: pull_request.opened}\n    stages: *big\n", i)
	}
	return []byte(b.String())
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLoadAliasBomb loads a 270 KB config whose pipelines alias one 400-stage list:
// it is refused at the first alias past the node budget, with what to change, and the
// refusal allocates a few megabytes (without the budget it took tens of seconds and
// gigabytes). The time is logged, not asserted; BenchmarkLoadAliasBomb measures it.
func TestLoadAliasBomb(t *testing.T) {
	src := aliasBomb(270 << 10)
	require.Greater(t, len(src), 270<<10)
	var err error
	start := time.Now()
	bytes := allocated(func() { _, err = Load("bomb.yaml", src, fakeRegistry{}) })
	t.Logf("%d bytes refused in %v, %.1f MB allocated", len(src), time.Since(start), float64(bytes)/(1<<20))
	require.Error(t, err)
	got := err.Error() + "\n"
	golden := filepath.Join("testdata", "budget", "alias_bomb.out")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, readErr := os.ReadFile(golden)
	require.NoError(t, readErr, "run go test ./engine/ -update to create it")
	assert.Equal(t, string(want), got)
	assert.Less(t, bytes, uint64(100<<20), "the refusal must take well under 100 MB")
}

func BenchmarkLoadAliasBomb(b *testing.B) {
	src := aliasBomb(270 << 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load("bomb.yaml", src, fakeRegistry{}); err == nil {
			b.Fatal("the bomb loaded")
		}
	}
}

// TestLoadAliasesWithinBudget checks that aliases are fine below the budget: 16
// pipelines sharing the 400 stages load, and the validation passes over the 6,400
// stages they expand to stay cheap.
func TestLoadAliasesWithinBudget(t *testing.T) {
	src := aliasBomb(0)
	var b strings.Builder
	b.Write(src)
	for i := 1; i < 16; i++ {
		fmt.Fprintf(&b, "  p%d:\n    trigger: {event: pull_request.opened}\n    stages: *big\n", i)
	}
	var cfg *lang.Config
	var err error
	bytes := allocated(func() { cfg, err = Load("f.yaml", []byte(b.String()), fakeRegistry{}) })
	require.NoError(t, err)
	require.Len(t, cfg.Pipelines, 16)
	assert.Len(t, cfg.Pipelines[15].Stages, 400)
	assert.Less(t, bytes, uint64(200<<20))
}

func TestNodeBudget(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"an alias inside the node it names", "a: &x [1, *x]\n",
			"f.yaml:1:11: the config expands to more than 100000 nodes (aliases are expanded where they are used); " +
				"alias *x is used inside the node it names, so it expands without end; remove it [value]"},
		{"nested aliases", "a: &a [" + strings.Repeat("x, ", 99) + "x]\nb: &b [" + strings.Repeat("*a, ", 99) + "*a]\nc: &c [" +
			strings.Repeat("*b, ", 99) + "*b]\n",
			"f.yaml:3:40: the config expands to more than 100000 nodes (aliases are expanded where they are used); " +
				"alias *b adds 10202 nodes every time it is used; alias a smaller part, or use it in fewer places [value]"},
		{"a long string aliased", "a: &s \"" + strings.Repeat("x", 1<<20) + "\"\nb: [*s, *s, *s, *s]\n",
			"f.yaml:2:13: the config expands to more than 4 MB of text (aliases are expanded where they are used); " +
				"alias *s adds 1048576 bytes every time it is used; alias a smaller part, or use it in fewer places [value]"},
		{"no alias", "a: [" + strings.Repeat("1,", maxWrittenNodes) + "1]\n",
			"f.yaml:1:499997: the config has more than 250000 nodes; make it smaller [value]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("f.yaml", []byte(tt.src), fakeRegistry{})
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// TestNodeBudgetAcrossFiles checks that the files of a split config share one budget:
// the file that goes over it is reported, and later files are not read.
func TestNodeBudgetAcrossFiles(t *testing.T) {
	half := func(name string) SourceFile {
		return SourceFile{Path: name, Src: []byte("pipelines:\n  " + strings.TrimSuffix(name, ".yaml") + ":\n    stages: [" +
			strings.Repeat("{id: a, type: gate},", maxWrittenNodes/2/5) + "]\n")}
	}
	files := []SourceFile{{Path: "a.yaml", Src: []byte("version: 1\n")}, half("b.yaml"), half("c.yaml"), half("d.yaml")}
	_, err := LoadFiles(files, fakeRegistry{})
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "c.yaml:3:")
	assert.Contains(t, msg, "the config has more than 250000 nodes")
	assert.NotContains(t, msg, "d.yaml")
	assert.Equal(t, 1, strings.Count(msg, "\n")+1, msg)
}

// TestReferenceConfigsFitTheBudget keeps the budget far above what real configs use.
func TestReferenceConfigsFitTheBudget(t *testing.T) {
	files, err := filepath.Glob("testdata/reference/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		l := &loader{nodes: newNodeBudget(), maxLines: map[string]int{}}
		root := l.parse(src)
		require.NotNil(t, root, file)
		assert.Less(t, l.nodes.expanded, maxConfigNodes/20, "%s uses %d nodes", file, l.nodes.expanded)
		assert.Less(t, l.nodes.text, maxConfigText/100, file)
	}
}

// hostileShapes are configs near the node budget shaped to make the validation
// passes work hard: long chains and loops of actions, thousands of unknown
// references with close names, long and dense sub-pipeline graphs.
func hostileShapes() map[string]string {
	shapes := map[string]string{}
	build := func(name string, fn func(b *strings.Builder)) {
		var b strings.Builder
		fn(&b)
		shapes[name] = b.String()
	}
	head := "version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n"
	build("action chain", func(b *strings.Builder) {
		b.WriteString(head)
		for i := range 7000 {
			next := fmt.Sprintf("a%d", i+1)
			if i == 6999 {
				next = "complete"
			}
			fmt.Fprintf(b, "      - {id: a%d, type: action, action: add_label, config: {label: x}, on_success: %s}\n", i, next)
		}
	})
	build("action loop", func(b *strings.Builder) {
		b.WriteString(head)
		for i := range 6000 {
			fmt.Fprintf(b, "      - {id: a%d, type: action, action: add_label, config: {label: x}, on_success: a%d, on_failure: a%d}\n",
				i, (i+1)%6000, i/2)
		}
	})
	build("unknown targets", func(b *strings.Builder) {
		b.WriteString(head)
		for i := range 7000 {
			fmt.Fprintf(b, "      - {id: stage_number_%06d, type: gate, conditions: [{check: ci_status}], on_pass: xtage_number_%06d}\n", i, i)
		}
	})
	build("sub-pipeline chain", func(b *strings.Builder) {
		b.WriteString("version: 1\nsettings: {max_nesting: 10000}\npipelines:\n")
		for i := range 9000 {
			fmt.Fprintf(b, "  p%d: {stages: [{id: s, type: pipeline, pipeline: p%d}]}\n", i, i+1)
		}
		b.WriteString("  p9000: {trigger: {event: pull_request.opened}, stages: [{id: s, type: gate, conditions: [{check: ci_status}]}]}\n")
	})
	build("sub-pipeline ring", func(b *strings.Builder) {
		b.WriteString("version: 1\npipelines:\n")
		for i := range 6000 {
			fmt.Fprintf(b, "  p%d: {trigger: {event: pull_request.opened}, stages: [{id: s, type: pipeline, pipeline: p%d}]}\n", i, (i+1)%6000)
		}
	})
	build("dense sub-pipelines", func(b *strings.Builder) {
		b.WriteString("version: 1\npipelines:\n")
		for i := range 1000 {
			fmt.Fprintf(b, "  p%d:\n    trigger: {event: pull_request.opened}\n    stages:\n", i)
			for j := range 10 {
				fmt.Fprintf(b, "      - {id: s%d, type: pipeline, pipeline: p%d}\n", j, (i*7+j*131+1)%1000)
			}
		}
	})
	build("unknown agents", func(b *strings.Builder) {
		b.WriteString("version: 1\nagents:\n")
		for i := range 5000 {
			fmt.Fprintf(b, "  agent_number_%06d: {workflow: w.yml}\n", i)
		}
		b.WriteString("pipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n")
		for i := range 5000 {
			fmt.Fprintf(b, "      - {id: s%d, type: agent, agent: bgent_number_%06d}\n", i, i)
		}
	})
	build("restart invalidating unknown stages", func(b *strings.Builder) {
		b.WriteString("version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    on_events:\n      pull_request.synchronize:\n" +
			"        action: invalidate_and_restart\n        restart_from: s0\n        invalidate: [")
		for i := range 30000 {
			fmt.Fprintf(b, "x%d, ", i)
		}
		b.WriteString("s0]\n    stages:\n")
		for i := range 5000 {
			fmt.Fprintf(b, "      - {id: s%d, type: gate, conditions: [{check: ci_status}]}\n", i)
		}
	})
	return shapes
}

// TestLoadHostileShapes loads each hostile shape: it stays within the budget, so the
// passes run over it, and each reports at most lang.MaxErrors errors and allocates a
// bounded amount (the time is logged; before the passes were made linear, some took
// minutes).
func TestLoadHostileShapes(t *testing.T) {
	want := map[string]string{
		"action chain":                        "",
		"action loop":                         `stages "a0" -> "a1" -> "a2" -> "a3"`,
		"unknown targets":                     `stage "xtage_number_000000" not found in pipeline "p"; did you mean "stage_number_000000"?`,
		"sub-pipeline chain":                  "",
		"sub-pipeline ring":                   `sub-pipeline cycle: "p0" -> "p1" -> "p2"`,
		"dense sub-pipelines":                 `sub-pipeline cycle: "p2" -> "p932" -> "p442" -> "p12" -> "p2"`,
		"unknown agents":                      `missing required key "dispatch" in agent "agent_number_000000"`,
		"restart invalidating unknown stages": `unknown stage "x0" in "invalidate" of the "pull_request.synchronize" reaction of pipeline "p"; did you mean "s0"?`,
	}
	for name, src := range hostileShapes() {
		t.Run(name, func(t *testing.T) {
			var err error
			start := time.Now()
			bytes := allocated(func() { _, err = Load("f.yaml", []byte(src), fakeRegistry{}) })
			t.Logf("%d KB in %v, %.1f MB allocated", len(src)>>10, time.Since(start), float64(bytes)/(1<<20))
			assert.Less(t, bytes, uint64(200<<20))
			if want[name] == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var list lang.ErrorList
			require.ErrorAs(t, err, &list)
			assert.Contains(t, list[0].Message, want[name])
			assert.LessOrEqual(t, len(list), lang.MaxErrors+1)
			if len(list) == lang.MaxErrors+1 {
				assert.Equal(t, "more than 100 errors; the rest are not shown (fix these and validate again)", list[lang.MaxErrors].Message)
			}
		})
	}
}

// TestErrorLimit checks that a config with more mistakes than lang.MaxErrors reports the
// first of them by position and a note where the rest begin.
func TestErrorLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\npipelines:\n  p:\n    stages:\n")
	for i := range 150 {
		fmt.Fprintf(&b, "      - {id: s%d, type: gate, conditions: [{check: ci_status}], colour: red}\n", i)
	}
	_, err := Load("f.yaml", []byte(b.String()), fakeRegistry{})
	require.Error(t, err)
	var list lang.ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, lang.MaxErrors+1)
	assert.Equal(t, `f.yaml:5:64: unknown key "colour" in stage "s0"; expected one of "id", "type", "description", "agent", "action", "continue_session", "condition", "skip_to", "timeout", "on_timeout", "on_complete", "on_error", "config", "context", "outputs_schema", "on_followup", "on_revise", "on_reject", "on_approve", "on_failed", "conditions", "any_of", "on_pass", "on_fail", "wait_for", "from", "count", "notify", "auto_assign", "dismiss_stale", "pattern", "label", "join", "branches", "on_any_reject", "duration", "poll", "on_success", "on_failure", "on_conflict", "on_ci_failure", "request", "expect", "pipeline" [key]`,
		list[0].Error())
	assert.Equal(t, "f.yaml:105:66: more than 100 errors; the rest are not shown (fix these and validate again) [limit]", list[lang.MaxErrors].Error())
}
