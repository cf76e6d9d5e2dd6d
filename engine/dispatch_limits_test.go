package engine

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// A context too large for a workflow_dispatch fails the stage with the reason instead of
// sending a dispatch GitHub refuses; one that fits is dispatched.
func TestWorkflowDispatchOverGitHubsPayloadLimitIsNotSent(t *testing.T) {
	for _, tt := range []struct {
		name string
		size int
		sent bool
	}{
		{name: "fits", size: model.MaxDispatchPayload - 1000, sent: true},
		{name: "too large", size: model.MaxDispatchPayload, sent: false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := agentConfig(t, lang.DispatchWorkflow)
			cfg.Pipelines[0].Context[1].Value.Scalar = strings.Repeat("x", tt.size)
			res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
			if tt.sent {
				require.Len(t, res.Effects, 1)
				assert.Equal(t, model.EffectDispatch, res.Effects[0].Kind)
				return
			}
			assert.Empty(t, res.Effects)
			sr := res.State.Runs[0].Stages["implement"]
			assert.Contains(t, sr.Message, "a workflow_dispatch takes at most 65535")
		})
	}
}

func TestCheckDispatchPayload(t *testing.T) {
	many := map[string]string{}
	for i := range model.MaxDispatchInputs + 1 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	require.Error(t, model.CheckDispatchPayload(many))
	delete(many, "k")
	require.NoError(t, model.CheckDispatchPayload(many))
	// Characters, not bytes: 30,000 two-byte characters fit.
	require.NoError(t, model.CheckDispatchPayload(map[string]string{"context": strings.Repeat("é", 30_000)}))
}
