package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

func TestLabelPresent(t *testing.T) {
	tests := []gateCase{
		{
			name:  "present",
			facts: facts(labels("bug", "automerge")),
			want:  model.GateResult{Status: model.GatePass, Message: `label "automerge" is present`},
		},
		{
			name:  "present in another case: GitHub's labels ignore case",
			facts: facts(labels("AutoMerge")),
			want:  model.GateResult{Status: model.GatePass, Message: `label "automerge" is present`},
		},
		{
			name:  "absent",
			facts: facts(labels("bug")),
			want: model.GateResult{Status: model.GatePending, Message: `needs label "automerge"`,
				Who: "someone who can label PRs"},
		},
		{
			name:  "no pull request fails closed",
			facts: nil,
			want: model.GateResult{Status: model.GateError,
				Message: `there is no pull request to check; "label_present" works only on pull requests`},
		},
	}
	assertEvaluates(t, LabelPresent{}, "label_present", "{label: automerge}", tests)
}

func TestLabelPresentParams(t *testing.T) {
	tests := []paramCase{
		{name: "missing", params: "{}", want: `t.yaml:1:1: missing required key "label" for check "label_present" [gate]`},
		{name: "empty", params: `{label: ""}`, want: `t.yaml:1:9: "label" of check "label_present" must not be empty [gate]`},
		{name: "not a string", params: "{label: [a]}", want: `t.yaml:1:9: "label" of check "label_present" must be a string [gate]`},
	}
	assertRefuses(t, LabelPresent{}, "label_present", true, tests)
}

func TestLabelPresentDoesNotDependOnTheHead(t *testing.T) {
	var c engine.Check = labelPresent{label: "x"}
	h, ok := c.(model.HeadIndependent)
	require.True(t, ok)
	assert.True(t, h.HeadIndependent())
}
