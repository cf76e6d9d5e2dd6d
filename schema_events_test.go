package pipelineaction_test

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang/load"
)

// The events the schema offers are exactly those the loader accepts.
func TestSchemaEventsMatchLoader(t *testing.T) {
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var doc struct {
		Defs struct {
			Trigger struct {
				Properties struct {
					Event struct {
						Enum []string `json:"enum"`
					} `json:"event"`
				} `json:"properties"`
			} `json:"trigger"`
			Pipeline struct {
				Properties struct {
					OnEvents struct {
						PropertyNames struct {
							Enum []string `json:"enum"`
						} `json:"propertyNames"`
					} `json:"on_events"`
				} `json:"properties"`
			} `json:"pipeline"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	sorted := func(xs []string) []string {
		out := append([]string{}, xs...)
		sort.Strings(out)
		return out
	}
	assert.Equal(t, sorted(load.TriggerEvents()), sorted(doc.Defs.Trigger.Properties.Event.Enum), "trigger events")
	assert.Equal(t, sorted(load.ReactionEvents()), sorted(doc.Defs.Pipeline.Properties.OnEvents.PropertyNames.Enum), "on_events events")
}
