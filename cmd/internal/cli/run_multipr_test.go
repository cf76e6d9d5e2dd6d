package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

// TestReportRefReadsOnlyTheStagesRepository: a report of a multi-pr run makes the
// invocation read a pull request of its stage's literal config.repo, and nothing else.
func TestReportRefReadsOnlyTheStagesRepository(t *testing.T) {
	cfg, err := engine.Load(".github/pipelines.yaml", []byte(`version: 1
agents:
  dev: {dispatch: comment, body: "@dev go"}
pipelines:
  xr:
    scope: multi-pr
    trigger: {event: issues.labeled, conditions: {label: x}}
    stages:
      - {id: api, type: agent, agent: dev, action: implement, config: {repo: acme/api}, on_complete: own}
      - {id: own, type: agent, agent: dev, action: implement, on_complete: complete}
`), nil)
	require.NoError(t, err)
	st := &engine.State{Runs: []*engine.Run{{ID: "xr/4/1", Pipeline: "xr", ConfigOID: cfg.BlobOID}}}
	rep := func(stage string, pr any) *engine.Report {
		return &engine.Report{Run: "xr/4/1", Stage: stage, Outputs: map[string]any{"pr": pr}}
	}
	ref, ok := reportRef(cfg, st, rep("api", float64(12)))
	assert.True(t, ok)
	assert.Equal(t, engine.PRRef{Repo: "acme/api", Number: 12}, ref)
	ref, ok = reportRef(cfg, st, rep("api", "Acme/API#12"))
	assert.True(t, ok)
	assert.Equal(t, engine.PRRef{Repo: "acme/api", Number: 12}, ref)
	_, ok = reportRef(cfg, st, rep("api", "evil/repo#1"))
	assert.False(t, ok, "not the stage's repository: not read")
	_, ok = reportRef(cfg, st, rep("own", "evil/repo#1"))
	assert.False(t, ok, "a stage without config.repo reads no other repository")
	_, ok = reportRef(cfg, st, rep("own", float64(3)))
	assert.False(t, ok, "the subject's own pull requests are read by the snapshot")
	_, ok = reportRef(cfg, st, nil)
	assert.False(t, ok)
}
