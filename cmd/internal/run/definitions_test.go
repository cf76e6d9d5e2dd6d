package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
)

func configOf(texts ...string) *ghapi.Config {
	c := &ghapi.Config{}
	for _, t := range texts {
		c.Files = append(c.Files, ghapi.ConfigFile{Path: ".github/pipelines.yaml", Blob: ghapi.Blob{Text: t}})
	}
	return c
}

// loaded is the config of texts as the run path loads it.
func loaded(t *testing.T, texts ...string) *lang.Config {
	t.Helper()
	cfg, err := LoadConfig(configOf(texts...))
	require.NoError(t, err)
	return cfg
}

func TestDefinitionHashesPerPipeline(t *testing.T) {
	before := DefinitionHashes(loaded(t, `version: 1
pipelines:
  a: {trigger: {event: pull_request.opened}, stages: [{id: x, type: action, action: add_label, config: {label: l}}]}
  b: {trigger: {event: pull_request.opened}, stages: [{id: y, type: action, action: add_label, config: {label: m}}]}
`))
	after := DefinitionHashes(loaded(t, `version: 1
# a comment, another layout, another key order: the same definition of a
pipelines:
  b: {trigger: {event: pull_request.opened}, stages: [{id: y, type: action, action: add_label, config: {label: EDITED}}]}
  a:
    stages:
      - {config: {label: l}, id: x, type: action, action: add_label}
    trigger: {event: pull_request.opened}
`))
	assert.Len(t, before, 2)
	assert.Equal(t, before["a"], after["a"])
	assert.NotEqual(t, before["b"], after["b"])
}
