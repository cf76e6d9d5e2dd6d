package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGraph(t *testing.T) {
	files := map[string]string{".github/pipelines.yaml": mainWithSub, ".github/pipelines/review.yaml": subFile}
	const feature = "%% pipeline: feature\n" +
		"flowchart LR\n" +
		"    s_review[[\"review<br/>pipeline: standard-review\"]]\n" +
		"    complete([\"complete\"])\n" +
		"    s_review -->|complete| complete\n"
	const review = "%% pipeline: standard-review\n" +
		"flowchart LR\n" +
		"    s_ready{\"ready\"}\n" +
		"    complete([\"complete\"])\n" +
		"    s_ready -->|pass| complete\n"
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stdout string
		stderr string // a substring
	}{
		{name: "every pipeline", files: files, args: []string{"graph"}, stdout: feature + "\n" + review},
		{name: "one pipeline", files: files, args: []string{"graph", "--pipeline", "standard-review"}, stdout: review},
		{name: "path and flag in any order", files: files, args: []string{"graph", "--pipeline", "feature", "."}, stdout: feature},
		{name: "a file", files: map[string]string{"p.yaml": cleanConfig}, args: []string{"graph", "p.yaml"},
			stdout: "%% pipeline: review\n" +
				"flowchart LR\n" +
				"    s_review(\"review<br/>agent: pr-review · review\")\n" +
				"    s_merge[\"merge\"]\n" +
				"    complete([\"complete\"])\n" +
				"    s_review -->|complete| s_merge\n" +
				"    s_merge -->|success| complete\n"},
		{name: "unknown pipeline", files: files, args: []string{"graph", "--pipeline", "standard-reveiw"}, code: 2,
			stderr: `pipeline-action graph: unknown pipeline "standard-reveiw"; did you mean "standard-review"?`},
		{name: "unknown pipeline without a suggestion", files: files, args: []string{"graph", "--pipeline", "zzz"}, code: 2,
			stderr: `unknown pipeline "zzz"; expected one of "feature", "standard-review"`},
		{name: "config errors", files: map[string]string{"p.yaml": badAgent}, args: []string{"graph", "p.yaml"}, code: 1,
			stderr: `p.yaml:11:16: unknown agent "pr-reveiw" in stage "review"; did you mean "pr-review"? [ref]`},
		{name: "no config", args: []string{"graph"}, code: 2, stderr: "no config found"},
		{name: "two paths", files: files, args: []string{"graph", ".", "."}, code: 2, stderr: "one PATH at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			code, stdout, stderr := runMain(t, dir, tt.args...)
			assert.Equal(t, tt.code, code, "exit code; stderr:\n%s", stderr)
			assert.Equal(t, tt.stdout, stdout)
			assertStderr(t, tt.stderr, stderr)
		})
	}
}

// TestGraphExamples draws every example: each must load and give a chart per pipeline.
func TestGraphExamples(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "pipelines.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, path := range paths {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main([]string{"graph", path}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
			require.Equal(t, 0, code, stderr.String())
			assert.Contains(t, stdout.String(), "%% pipeline: ")
			assert.Contains(t, stdout.String(), "flowchart LR\n")
		})
	}
}
