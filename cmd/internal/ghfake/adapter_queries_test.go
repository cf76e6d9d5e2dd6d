package ghfake

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// adapterQuery is the adapter's query name (ghapi.Queries) on testRepo, reading the state
// branch pipeline-action/state and, for the issue query, pull request #7 by alias.
func adapterQuery(name string) ghapi.Query {
	q := ghapi.Queries("pipeline-action/state", 7)[name]
	q.Vars["owner"], q.Vars["name"] = githubv4.String("acme"), githubv4.String("widgets")
	return q
}

// subjectVars are the variables of the facts and issue queries for subject kind ("pr" or
// "issue") number, whose state file's shard of the index is shard.
func subjectVars(kind string, number int, shard string) map[string]any {
	file := kind + "-" + strconv.Itoa(number)
	return map[string]any{
		"number": githubv4.Int(number), "configExpr": githubv4.String("main:.github/pipelines.yaml"),
		"configDirExpr": githubv4.String("main:.github/pipelines"),
		"configPath":    githubv4.String(".github/pipelines.yaml"), "configDirPath": githubv4.String(".github/pipelines"),
		"stateRef": githubv4.String("refs/heads/pipeline-action/state"), "stateFile": githubv4.String(file + ".json"),
		"stateIndex": githubv4.String("index.json"), "stateShard": githubv4.String(shard), "stateOutputs": githubv4.String("outputs/" + file),
	}
}

// play runs q with vars added to its own and returns what githubv4 decoded.
func play(t *testing.T, gh *githubv4.Client, q ghapi.Query, vars map[string]any) any {
	t.Helper()
	for k, v := range vars {
		q.Vars[k] = v
	}
	require.NoError(t, gh.Query(t.Context(), q.Value, q.Vars))
	return q.Value
}

// field is the value at path in v, a decoded query or a part of one: Go field names joined by
// dots, a name followed by [i] taking the item i of a list. Pointers are followed; a nil one
// on the way gives nil.
func field(t *testing.T, v any, path string) any {
	t.Helper()
	rv := reflect.ValueOf(v)
	deref := func() bool {
		for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
			if rv.IsNil() {
				return false
			}
			rv = rv.Elem()
		}
		return true
	}
	for _, part := range strings.Split(path, ".") {
		if !deref() {
			return nil
		}
		name, index, _ := strings.Cut(strings.TrimSuffix(part, "]"), "[")
		rv = rv.FieldByName(name)
		require.True(t, rv.IsValid(), "%s: no field %s", path, name)
		if index != "" {
			i, err := strconv.Atoi(index)
			require.NoError(t, err, path)
			require.Greater(t, rv.Len(), i, "%s: %s has no item %d", path, name, i)
			rv = rv.Index(i)
		}
	}
	if !deref() {
		return nil
	}
	return rv.Interface()
}
