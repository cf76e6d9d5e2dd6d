package load

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const outputsSchemaYAML = `version: 1
agents:
  triage: {dispatch: label, label: triage}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: judge
        type: agent
        agent: triage
        outputs_schema:
          type: object
          required: [risk]
          properties:
            risk: {type: string, enum: [low, high]}
            files: {type: array, items: {type: string}}
`

func TestOutputsSchemaChecksReports(t *testing.T) {
	cfg, err := Load("p.yaml", []byte(outputsSchemaYAML), nil)
	require.NoError(t, err)
	sch := cfg.Pipelines[0].Stages[0].OutputsSchema
	require.NotNil(t, sch)
	assert.Equal(t, 12, sch.Pos.Line, "where the schema begins")
	assert.NoError(t, sch.Check(map[string]any{"risk": "low", "files": []any{"a.go"}}))
	err = sch.Check(map[string]any{"risk": "medium"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/risk")
	err = sch.Check(nil)
	require.Error(t, err, "a required output is missing")
	assert.Contains(t, err.Error(), "risk")
	err = sch.Check(map[string]any{"risk": "low", "files": []any{1}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/files/0")
}

func TestOutputsSchemaMistakes(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{"{$ref: 'https://example.com/s.json'}", `p.yaml:11:26: unknown key "$ref" in outputs_schema of stage "judge"`},
		{"{type: thing}", `p.yaml:11:32: "type" of outputs_schema of stage "judge" must be one of object, array`},
		{"{properties: {risk: {minimum: 3}}}", `p.yaml:11:46: unknown key "minimum" in property "risk" of outputs_schema`},
		{"[risk]", `p.yaml:11:25: outputs_schema of stage "judge" must be a mapping`},
	} {
		src := outputsSchemaYAML[:len(outputsSchemaYAML)-len(`          type: object
          required: [risk]
          properties:
            risk: {type: string, enum: [low, high]}
            files: {type: array, items: {type: string}}
`)]
		src = src[:len(src)-1] + " " + tc.schema + "\n"
		_, err := Load("p.yaml", []byte(src), nil)
		require.Error(t, err, tc.schema)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestOutputsSchemaTypes(t *testing.T) {
	src := `version: 1
agents:
  a: {dispatch: label, label: a}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: s
        type: agent
        agent: a
        outputs_schema:
          type: object
          properties:
            n: {type: integer, enum: [1, 2]}
            ratio: {type: number}
            ok: {type: boolean}
            tags: {type: array, items: {type: string}}
            meta: {type: object, required: [by]}
`
	cfg, err := Load("p.yaml", []byte(src), nil)
	require.NoError(t, err)
	sch := cfg.Pipelines[0].Stages[0].OutputsSchema
	assert.NoError(t, sch.Check(map[string]any{"n": float64(2), "ratio": 0.5, "ok": true, "tags": []any{"x"}, "meta": map[string]any{"by": "bot"}}))
	for _, tc := range []struct {
		outputs map[string]any
		want    string
	}{
		{map[string]any{"n": 1.5}, "at /n: want integer, got number"},
		{map[string]any{"n": float64(3)}, "at /n: value must be one of 1, 2"},
		{map[string]any{"ratio": "half"}, "at /ratio: want number, got string"},
		{map[string]any{"ok": "yes"}, "at /ok: want boolean, got string"},
		{map[string]any{"tags": []any{"x", 2.0}}, "at /tags/1: want string, got number"},
		{map[string]any{"meta": map[string]any{}}, `at /meta: missing property "by"`},
	} {
		err := sch.Check(tc.outputs)
		require.Error(t, err, tc.want)
		assert.Equal(t, tc.want, err.Error())
	}
}
