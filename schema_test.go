// Package pipelineaction_test holds the tests of what lies at the repository's root:
// pipelines.schema.json, the JSON Schema editors use for .github/pipelines.yaml, kept in
// step with the loader (engine/lang/load): every example config passes both, and every
// mistake that is a schema matter is rejected by both.
package pipelineaction_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"
)

const (
	schemaFile = "pipelines.schema.json"
	schemaID   = "https://raw.githubusercontent.com/org/pipeline-action/main/pipelines.schema.json"
)

// exampleGlobs name every config that must pass both the schema and the loader.
var exampleGlobs = []string{
	"examples/*/pipelines.yaml",
	"docs/setup/pipelines.yaml",
	"engine/lang/load/testdata/reference/*.yaml",
	"engine/lang/load/testdata/load/*.yaml",
	"cmd/internal/sim/testdata/scenarios/dormant-pipeline/pipelines.yaml", // enabled, session_variables, set_variable with workflow
	"cmd/internal/sim/testdata/scenarios/custom-gates/pipelines.yaml",
}

// rejectMarker on the first line of a golden error case says its mistake is a schema matter.
const rejectMarker = "# schema: reject"

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaFile)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err, "%s is not JSON", schemaFile)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	require.NoError(t, c.AddResource(schemaID, doc))
	sch, err := c.Compile(schemaID)
	require.NoError(t, err, "%s does not compile", schemaFile)
	return sch
}

// instance decodes YAML into the generic value JSON Schema validates.
func instance(src []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// jsonable turns the maps yaml.v3 makes for non-string keys into JSON objects.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}

func validate(sch *jsonschema.Schema, src []byte) error {
	v, err := instance(src)
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// loaderVerdict loads src. It returns the load errors, and those among them where the schema
// and the gates disagree: a check the schema knows that no gate registers, or a parameter of
// such a check that its gate does not read.
func loaderVerdict(t *testing.T, file string, src []byte) (all, pending lang.ErrorList) {
	t.Helper()
	_, err := engine.Load(file, src, gates.Default())
	if err == nil {
		return nil, nil
	}
	var list lang.ErrorList
	if !errors.As(err, &list) {
		return lang.ErrorList{{Message: err.Error(), Kind: "?"}}, nil
	}
	params := checkParams(t)
	for _, e := range list {
		if m := unknownCheck.FindStringSubmatch(e.Message); m != nil && params[m[1]] != nil {
			pending = append(pending, e)
		} else if m := unknownParam.FindStringSubmatch(e.Message); m != nil && params[m[2]][m[1]] {
			pending = append(pending, e)
		}
	}
	return list, pending
}

var (
	unknownCheck = regexp.MustCompile(`^unknown check "([^"]+)"`)
	unknownParam = regexp.MustCompile(`^unknown key "([^"]+)" for check "([^"]+)"`)
)

// checkParams reads from the schema the checks it knows and the parameters of each.
func checkParams(t *testing.T) map[string]map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var doc struct {
		Defs struct {
			Check struct {
				AllOf []struct {
					If struct {
						Properties struct {
							Check struct {
								Const string `json:"const"`
							} `json:"check"`
						} `json:"properties"`
					} `json:"if"`
					Then struct {
						Properties map[string]any `json:"properties"`
					} `json:"then"`
				} `json:"allOf"`
			} `json:"check"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	out := map[string]map[string]bool{}
	for _, c := range doc.Defs.Check.AllOf {
		name := c.If.Properties.Check.Const
		out[name] = map[string]bool{}
		for k := range c.Then.Properties {
			out[name][k] = true
		}
	}
	require.NotEmpty(t, out, "no checks found in the schema's $defs/check")
	return out
}

func examples(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range exampleGlobs {
		m, err := filepath.Glob(g)
		require.NoError(t, err)
		files = append(files, m...)
	}
	sort.Strings(files)
	require.NotEmpty(t, files, "no example configs found")
	return files
}

func TestSchemaCompiles(t *testing.T) {
	compile(t)
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var top struct {
		Schema string `json:"$schema"`
		ID     string `json:"$id"`
	}
	require.NoError(t, json.Unmarshal(raw, &top))
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", top.Schema)
	assert.Equal(t, schemaID, top.ID)
}

// TestSchemaDescribesEveryProperty keeps editors' hover text complete.
func TestSchemaDescribesEveryProperty(t *testing.T) {
	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				for name, p := range props {
					m, _ := p.(map[string]any)
					if _, ok := m["description"]; !ok && declares(p) {
						t.Errorf("%s/properties/%s has no description", path, name)
					}
				}
			}
			for k, e := range x {
				walk(path+"/"+k, e)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		}
	}
	walk("#", doc)
}

// declares reports whether the property schema p says what the property is, rather than
// narrowing one declared elsewhere (`true`, `false`, `{"const": …}` in an if-then, `{"minLength": 1}`).
func declares(p any) bool {
	m, ok := p.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "enum"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// TestExamplesPassSchemaAndLoader: every example config is valid for both.
func TestExamplesPassSchemaAndLoader(t *testing.T) {
	sch := compile(t)
	for _, file := range examples(t) {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.NoError(t, validate(sch, src), "the schema rejects an example the language allows")
			all, _ := loaderVerdict(t, file, src)
			assert.Empty(t, all, "the loader rejects an example the schema accepts")
		})
	}
}

// TestGoldenSchemaRejects: golden error cases marked "# schema: reject" on their first line
// are rejected by the schema as well as by the loader.
func TestGoldenSchemaRejects(t *testing.T) {
	sch := compile(t)
	files, err := filepath.Glob("engine/lang/load/testdata/err/*.yaml")
	require.NoError(t, err)
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		first, _, _ := strings.Cut(string(src), "\n")
		if strings.TrimSpace(first) != rejectMarker {
			continue
		}
		n++
		t.Run(filepath.Base(file), func(t *testing.T) {
			assert.Error(t, validate(sch, src), "the schema accepts it")
			all, _ := loaderVerdict(t, file, src)
			assert.NotEmpty(t, all, "the loader accepts it")
		})
	}
	t.Logf("%d golden cases marked %q", n, rejectMarker)
}
