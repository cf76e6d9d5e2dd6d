package doctor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// settings.status_check needs `statuses: write`; without it, reading statuses is enough.
func TestScopesNeededStatusCheck(t *testing.T) {
	const pipelines = "pipelines:\n  p:\n    stages: [{id: g, type: gate, conditions: [{check: ci_status}]}]\n"
	level := func(src string) string {
		cfg, err := engine.Load("p.yaml", []byte(src), gates.Default())
		require.NoError(t, err)
		for _, n := range scopesNeeded(cfg) {
			if n.scope == "statuses" {
				return n.level
			}
		}
		return ""
	}
	assert.Equal(t, "write", level("version: 1\nsettings: {status_check: true}\n"+pipelines))
	assert.Equal(t, "read", level("version: 1\n"+pipelines))
}
