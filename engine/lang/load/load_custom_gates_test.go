package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

const customGatesSrc = `version: 1
settings:
  custom_gates:
    reviewed:
      description: Approved by enough people and labelled
      params: {count: {default: 2}, label: {default: ready}}
      conditions:
        - check: human_approved
          count: "{{ params.count }}"
        - check: label_present
          label: "team/{{ params.label }}"
    green:
      conditions: [{check: ci_status}]
pipelines:
  p:
    stages:
      - id: ready
        type: gate
        conditions:
          - check: reviewed
            label: docs
          - check: reviewed
            count: 3
            optional: true
          - any_of:
              - check: green
              - check: label_present
                label: skip-ci
`

// A custom gate's condition stands for its conditions, with the arguments (or the
// defaults) in place of the parameter references, named after the custom gate.
func TestCustomGatesExpand(t *testing.T) {
	cfg, err := Load("p.yaml", []byte(customGatesSrc), fakeRegistry{})
	require.NoError(t, err)
	s := cfg.Pipelines[0].Stages[0]
	pos := func(line, col int) lang.Pos { return lang.Pos{File: "p.yaml", Line: line, Col: col} }
	assert.Equal(t, []lang.Condition{
		{Check: "reviewed", Builtin: "human_approved", Pos: pos(20, 13), Eval: fakeCheck{Name: "human_approved", Count: 2}},
		{Check: "reviewed", Builtin: "label_present", Pos: pos(20, 13), Eval: fakeCheck{Name: "label_present", Label: "team/docs"}},
		{Check: "reviewed", Builtin: "human_approved", Pos: pos(22, 13), Optional: true, Eval: fakeCheck{Name: "human_approved", Count: 3}},
		{Check: "reviewed", Builtin: "label_present", Pos: pos(22, 13), Optional: true, Eval: fakeCheck{Name: "label_present", Label: "team/ready"}},
	}, s.Conditions)
	require.Len(t, s.AnyOf, 1)
	assert.Equal(t, "green", s.AnyOf[0][0].Check)
	assert.Equal(t, "ci_status", s.AnyOf[0][0].BuiltinCheck())
	assert.Equal(t, fakeCheck{Name: "ci_status", Expect: "success"}, s.AnyOf[0][0].Eval)
	assert.Equal(t, "label_present", s.AnyOf[0][1].Check)
}

// An argument's error points at the argument, where the caller wrote it.
func TestCustomGatesArgumentPosition(t *testing.T) {
	src := `version: 1
settings:
  custom_gates:
    reviewed:
      params: {count: {}}
      conditions: [{check: human_approved, count: "{{ params.count }}"}]
pipelines:
  p:
    stages:
      - {id: ready, type: gate, conditions: [{check: reviewed, count: 0}]}
`
	_, err := Load("p.yaml", []byte(src), fakeRegistry{})
	require.EqualError(t, err, `p.yaml:10:71: "count" of check "human_approved" must be at least 1, not 0 [gate]`)
}

// A custom gate of many conditions used many times is refused past a bound, not expanded.
func TestCustomGatesExpansionBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nsettings:\n  custom_gates:\n    many:\n      conditions:\n")
	for range 200 {
		b.WriteString("        - {check: ci_status}\n")
	}
	b.WriteString("pipelines:\n  p:\n    stages:\n      - id: g\n        type: gate\n        conditions:\n")
	for range 60 {
		b.WriteString("          - {check: many}\n")
	}
	_, err := Load("p.yaml", []byte(b.String()), fakeRegistry{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the uses of custom gates stand for more than 10000 conditions")
}
