package agent

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
)

func TestSessionID(t *testing.T) {
	assert.Equal(t, "", SessionID(nil))
	assert.Equal(t, "", SessionID(&model.StageRun{Outputs: map[string]any{"session_id": 42.0}}), "not a string")
	assert.Equal(t, "", SessionID(&model.StageRun{Outputs: map[string]any{"session_id": strings.Repeat("x", model.MaxSessionID+1)}}))
	assert.Equal(t, "abc", SessionID(&model.StageRun{Outputs: map[string]any{"session_id": "abc"}}))
}
