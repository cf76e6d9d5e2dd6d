package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warningsConfig has a finding of each pass that only warns: an unreachable stage, a
// pipeline that never runs, and an agent the action's token cannot start.
const warningsConfig = `version: 1
agents:
  bot: {dispatch: label, label: run-bot}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: a, type: gate, conditions: [{check: ci_status}], on_pass: complete}
      - {id: b, type: agent, agent: bot}
  q:
    stages:
      - {id: c, type: gate, conditions: [{check: ci_status}]}
`

// TestLoadFilesToRunSkipsWarnings checks that a load to run builds the same config as
// validate's load, without the findings of the passes that only warn.
func TestLoadFilesToRunSkipsWarnings(t *testing.T) {
	files := []SourceFile{{Path: "p.yaml", Src: []byte(warningsConfig)}}
	full, err := LoadFiles(files, fakeRegistry{})
	require.NoError(t, err)
	var kinds []string
	for _, w := range full.Warnings {
		kinds = append(kinds, w.Message[:strings.Index(w.Message, ":")])
	}
	assert.Equal(t, []string{`agent "bot" is dispatched by a label that a GitHub Actions workflow receives (listener`,
		`stage "b" is unreachable`, `pipeline "q" never runs`}, kinds)

	run, err := LoadFilesToRun(files, fakeRegistry{})
	require.NoError(t, err)
	assert.Empty(t, run.Warnings)
	full.Warnings = nil
	assert.Equal(t, full, run)
}

// TestLoadFilesToRunSameErrors checks that a load to run finds every error validate
// does: each testdata/err config gives its golden errors.
func TestLoadFilesToRunSameErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/err/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			cfg, err := LoadFilesToRun([]SourceFile{{Path: file, Src: src}}, fakeRegistry{})
			require.Error(t, err)
			assert.Nil(t, cfg)
			want, err2 := os.ReadFile(strings.TrimSuffix(file, ".yaml") + ".out")
			require.NoError(t, err2)
			assert.Equal(t, string(want), err.Error()+"\n")
		})
	}
}
