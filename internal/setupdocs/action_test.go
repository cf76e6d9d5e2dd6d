package setupdocs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// actionDescriptions are the descriptions of action.yml's inputs and outputs.
func actionDescriptions(t *testing.T) (inputs, outputs map[string]string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	require.NoError(t, err)
	var a struct {
		Inputs  map[string]struct{ Description string } `yaml:"inputs"`
		Outputs map[string]struct{ Description string } `yaml:"outputs"`
	}
	require.NoError(t, yaml.Unmarshal(src, &a))
	inputs, outputs = map[string]string{}, map[string]string{}
	for k, v := range a.Inputs {
		inputs[k] = v.Description
	}
	for k, v := range a.Outputs {
		outputs[k] = v.Description
	}
	return inputs, outputs
}

// scopeLevels are the `scope: level` pairs a text names, sorted.
func scopeLevels(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`([a-z-]+): (read|write)`").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+": "+m[2])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// action.yml's `token` names the scopes of the README's permissions table (which a test
// holds to the documented workflow's), no fewer and no others.
func TestActionTokenNamesThePermissions(t *testing.T) {
	var table []string
	for _, m := range regexp.MustCompile("(?m)^\\| (`[a-z-]+: (?:read|write)`) \\|").FindAllStringSubmatch(readmeSection(t, "Permissions"), -1) {
		table = append(table, m[1])
	}
	require.NotEmpty(t, table, "the README's permissions table")
	inputs, _ := actionDescriptions(t)
	assert.Equal(t, scopeLevels(strings.Join(table, " ")), scopeLevels(inputs["token"]), "action.yml's token description")
}

// runStatuses are the values of the engine's RunStatus constants, read from its source.
func runStatuses(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "engine/model/run.go"), nil, 0)
	require.NoError(t, err)
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		v, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "RunStatus" {
			return true
		}
		for _, e := range v.Values {
			if lit, ok := e.(*ast.BasicLit); ok {
				s, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				out = append(out, s)
			}
		}
		return true
	})
	require.Contains(t, out, "escalated", "the run statuses as the engine defines them")
	return out
}

// The `status` output is a run's status: action.yml and the README name every one it can be.
func TestStatusOutputNamesEveryRunStatus(t *testing.T) {
	_, outputs := actionDescriptions(t)
	row := tableRows(readmeSection(t, "Outputs"))["status"]
	for _, s := range runStatuses(t) {
		assert.Regexp(t, `\b`+s+`\b`, outputs["status"], "action.yml's status output")
		assert.Regexp(t, `\b`+s+`\b`, row, "the README's status output")
	}
}

// No paragraph or list item of the README stops mid-sentence on a comma.
func TestReadmeSentencesEnd(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	lines := strings.Split(string(src), "\n")
	code := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			code = !code
			continue
		}
		end := i+1 == len(lines) || strings.TrimSpace(lines[i+1]) == ""
		if !code && end {
			assert.False(t, strings.HasSuffix(strings.TrimSpace(l), ","), "README.md:%d ends mid-sentence: %q", i+1, l)
		}
	}
}
