package load

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidateBranchMerges(t *testing.T) {
	const base = `version: 1
pipelines:
  top:
    trigger: {event: pull_request.opened}
    stages:
      - id: reviews
        type: parallel
        branches:
          - {id: a, type: pipeline, pipeline: lands}
          - {id: b, type: pipeline, pipeline: checks}
        on_complete: merge
      - {id: merge, type: action, action: merge_pr}
  checks:
    stages:
      - {id: tag, type: action, action: add_label, config: {label: checked}}
  lands:
    stages:
      - {id: deeper, type: pipeline, pipeline: inner}
  inner:
    stages:
      - {id: m, type: action, action: merge_pr}
`
	_, err := Load(".github/pipelines.yaml", []byte(base), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `.github/pipelines.yaml:9:47: branch "a" of stage "reviews" runs pipeline "lands", which merges (stage "m" of pipeline "inner" at .github/pipelines.yaml:21:9): a merge belongs after the join, not inside a branch`)
	assert.NotContains(t, err.Error(), `branch "b"`)

	// The same sub-pipeline as a stage of its own (not a branch) may merge.
	ok := `version: 1
pipelines:
  top:
    trigger: {event: pull_request.opened}
    stages:
      - {id: land, type: pipeline, pipeline: inner}
  inner:
    stages:
      - {id: m, type: action, action: merge_pr}
`
	_, err = Load(".github/pipelines.yaml", []byte(ok), nil)
	assert.NoError(t, err)
}
