package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFiles creates files (path relative to dir -> content) under a new temp dir.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return dir
}

// runMain runs the command line in dir (paths in args are relative to it) and
// returns the exit code, stdout and stderr.
func runMain(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	return code, stdout.String(), stderr.String()
}

const cleanConfig = `version: 1
agents:
  pr-review: {dispatch: workflow, workflow: review.yml}
pipelines:
  review:
    trigger:
      event: pull_request.opened
    stages:
      - id: review
        type: agent
        agent: pr-review
        action: review
      - id: merge
        type: action
        action: merge_pr
`

// mainWithSub runs a sub-pipeline defined in another file.
const mainWithSub = `version: 1
pipelines:
  feature:
    trigger:
      event: pull_request.opened
    stages:
      - id: review
        type: pipeline
        pipeline: standard-review
`

const subFile = `pipelines:
  standard-review:
    stages:
      - id: ready
        type: gate
        conditions:
          - check: no_changes_requested
`

// unreachable has a stage no transition leads to (line 11).
const unreachable = `version: 1
pipelines:
  p:
    trigger:
      event: pull_request.opened
    stages:
      - id: merge
        type: action
        action: merge_pr
        on_success: complete
      - id: never
        type: action
        action: merge_pr
`

// badAgent names an unknown agent at line 10 and a misspelt sub-pipeline at line 12.
const badAgent = `version: 1
agents:
  pr-review: {dispatch: workflow, workflow: review.yml}
pipelines:
  p:
    trigger:
      event: pull_request.opened
    stages:
      - id: review
        type: agent
        agent: pr-reveiw
      - id: sub
        type: pipeline
        pipeline: pp
`

// parallelFile has a parallel stage with two branches: three stages in all.
const parallelFile = `pipelines:
  both:
    trigger:
      event: pull_request.opened
    stages:
      - id: reviews
        type: parallel
        join: all
        branches:
          - {id: a, type: pipeline, pipeline: standard-review}
          - {id: b, type: action, action: add_label, config: {label: reviewed}}
`

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stdout string
		stderr string // a substring
	}{
		{name: "clean directory", files: map[string]string{".github/pipelines.yaml": cleanConfig},
			args: []string{"validate"}, stdout: "checked .github/pipelines.yaml: 1 pipeline, 2 stages, no problems\n"},
		{name: "clean file", files: map[string]string{"p.yaml": cleanConfig},
			args: []string{"validate", "p.yaml"}, stdout: "checked p.yaml: 1 pipeline, 2 stages, no problems\n"},
		{name: "files of a directory load together",
			files:  map[string]string{".github/pipelines.yaml": mainWithSub, ".github/pipelines/review.yaml": subFile},
			args:   []string{"validate", "."},
			stdout: "checked .github/pipelines.yaml and .github/pipelines/review.yaml: 2 pipelines, 2 stages, no problems\n"},
		{name: "only pipelines/*.yaml",
			files:  map[string]string{".github/pipelines/a.yaml": cleanConfig},
			args:   []string{"validate"},
			stdout: "checked .github/pipelines/a.yaml: 1 pipeline, 2 stages, no problems\n"},
		{name: "files named one by one load with their config",
			files:  map[string]string{".github/pipelines.yaml": mainWithSub, ".github/pipelines/review.yaml": subFile},
			args:   []string{"validate", ".github/pipelines/review.yaml", ".github/pipelines.yaml"},
			stdout: "checked .github/pipelines/review.yaml and .github/pipelines.yaml: 2 pipelines, 2 stages, no problems\n"},
		{name: "three files, and a parallel stage counts its branches",
			files:  map[string]string{".github/pipelines.yaml": mainWithSub, ".github/pipelines/review.yaml": subFile, ".github/pipelines/par.yaml": parallelFile},
			args:   []string{"validate"},
			stdout: "checked .github/pipelines.yaml, .github/pipelines/par.yaml and .github/pipelines/review.yaml: 3 pipelines, 5 stages, no problems\n"},
		{name: "a file alone misses the other files",
			files: map[string]string{".github/pipelines.yaml": mainWithSub, "sub.yaml": subFile},
			args:  []string{"validate", ".github/pipelines.yaml"}, code: 1,
			stdout: `.github/pipelines.yaml:9:19: unknown sub-pipeline "standard-review" in stage "review"; expected one of "feature" [ref]` + "\n" +
				"checked .github/pipelines.yaml: 1 error\n"},
		{name: "warnings do not fail", files: map[string]string{"p.yaml": unreachable},
			args: []string{"validate", "p.yaml"},
			stdout: `p.yaml:11:9: stage "never" is unreachable: no transition leads to it from the first stage "merge" [warning]` + "\n" +
				"checked p.yaml: 1 pipeline, 2 stages, 1 warning\n"},
		{name: "warnings fail with --strict", files: map[string]string{"p.yaml": unreachable},
			args: []string{"validate", "--strict", "p.yaml"}, code: 1,
			stdout: `p.yaml:11:9: stage "never" is unreachable: no transition leads to it from the first stage "merge" [warning]` + "\n" +
				"checked p.yaml: 1 pipeline, 2 stages, 1 warning\n"},
		{name: "flags after paths", files: map[string]string{"p.yaml": unreachable},
			args: []string{"validate", "p.yaml", "--strict"}, code: 1,
			stdout: `p.yaml:11:9: stage "never" is unreachable: no transition leads to it from the first stage "merge" [warning]` + "\n" +
				"checked p.yaml: 1 pipeline, 2 stages, 1 warning\n"},
		{name: "errors sorted, then warnings", files: map[string]string{"b.yaml": badAgent, "a/p.yaml": unreachable},
			args: []string{"validate", "b.yaml", "a/p.yaml"}, code: 1,
			stdout: `b.yaml:11:16: unknown agent "pr-reveiw" in stage "review"; did you mean "pr-review"? [ref]` + "\n" +
				`b.yaml:14:19: unknown sub-pipeline "pp" in stage "sub"; did you mean "p"? [ref]` + "\n" +
				`a/p.yaml:11:9: stage "never" is unreachable: no transition leads to it from the first stage "merge" [warning]` + "\n" +
				"checked b.yaml: 2 errors\n" +
				"checked a/p.yaml: 1 pipeline, 2 stages, 1 warning\n"},
		{name: "github format", files: map[string]string{"b.yaml": badAgent, "a/p.yaml": unreachable},
			args: []string{"validate", "--format", "github", "b.yaml", "a/p.yaml"}, code: 1,
			stdout: `::error file=b.yaml,line=11,col=16::unknown agent "pr-reveiw" in stage "review"; did you mean "pr-review"? [ref]` + "\n" +
				`::error file=b.yaml,line=14,col=19::unknown sub-pipeline "pp" in stage "sub"; did you mean "p"? [ref]` + "\n" +
				`::warning file=a/p.yaml,line=11,col=9::stage "never" is unreachable: no transition leads to it from the first stage "merge" [warning]` + "\n" +
				"checked b.yaml: 2 errors\n" +
				"checked a/p.yaml: 1 pipeline, 2 stages, 1 warning\n"},
		{name: "a syntax error", files: map[string]string{"p.yaml": "version: 1\npipelines: [\n"},
			args: []string{"validate", "p.yaml"}, code: 1, stdout: "p.yaml:"},
		{name: "missing path", args: []string{"validate", "nope.yaml"}, code: 2, stderr: "nope.yaml"},
		{name: "directory without a config", files: map[string]string{"README.md": "hi"},
			args: []string{"validate", "."}, code: 2, stderr: "no config found; expected .github/pipelines.yaml, .github/pipelines/*.yaml or pipelines.yaml"},
		{name: "an example directory", files: map[string]string{"ex/pipelines.yaml": unreachable},
			args: []string{"validate", "ex"},
			stdout: `ex/pipelines.yaml:11:9: stage "never" is unreachable: no transition leads to it from the first stage "merge" [warning]` + "\n" +
				"checked ex/pipelines.yaml: 1 pipeline, 2 stages, 1 warning\n"},
		{name: ".github wins over pipelines.yaml", files: map[string]string{".github/pipelines.yaml": cleanConfig, "pipelines.yaml": unreachable},
			args: []string{"validate"}, stdout: "checked .github/pipelines.yaml: 1 pipeline, 2 stages, no problems\n"},
		{name: "unknown format", files: map[string]string{"p.yaml": cleanConfig},
			args: []string{"validate", "--format", "json", "p.yaml"}, code: 2, stderr: `unknown format "json"`},
		{name: "unknown flag", args: []string{"validate", "--nope"}, code: 2, stderr: "usage: pipeline-action validate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			code, stdout, stderr := runMain(t, dir, tt.args...)
			assert.Equal(t, tt.code, code, "exit code; stdout:\n%s\nstderr:\n%s", stdout, stderr)
			if tt.name == "a syntax error" {
				assert.True(t, strings.HasPrefix(stdout, tt.stdout), stdout)
			} else {
				assert.Equal(t, tt.stdout, stdout)
			}
			assertStderr(t, tt.stderr, stderr)
		})
	}
}

func TestGitHubEscaping(t *testing.T) {
	assert.Equal(t, "a%25b%0D%0Ac: d, e", escapeData("a%b\r\nc: d, e"))
	assert.Equal(t, "dir%2Cx/a%3Ab.yaml", escapeProperty("dir,x/a:b.yaml"))
}
