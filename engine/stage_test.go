package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

// Every stage type of the language has its unit in stageTypes, and the table holds no
// other: a type the language gains is one the step loop can evaluate.
func TestStageTypesCoverTheLanguage(t *testing.T) {
	for _, st := range lang.StageTypes {
		assert.Contains(t, stageTypes, st, "stage type %q has no entry in stageTypes", st)
	}
	assert.Len(t, stageTypes, len(lang.StageTypes))
}
