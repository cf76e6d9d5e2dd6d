package ghapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// No GraphQL document of the action reads an id GitHub's schema types as a 32-bit Int
// (`databaseId`, `appId`, …): once GitHub's ids of that kind pass 2^31, as comment ids did,
// it answers an error for the whole query. githubv4 names a field by its struct tag or by
// the Go field's name with its first letter in lower case.
func TestNoThirtyTwoBitIDs(t *testing.T) {
	schema := runtest.Read(t, "../../../testdata/github/graphql/schema.graphql")
	int32IDs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-zA-Z]+Id)(?:\([^)]*\))?: Int!?$`).FindAllStringSubmatch(schema, -1) {
		int32IDs[m[1]] = true
	}
	require.True(t, int32IDs["databaseId"], "the schema's Int ids are found")

	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			field, ok := n.(*ast.Field)
			if !ok {
				return true
			}
			for _, gql := range graphqlNames(field) {
				assert.False(t, int32IDs[gql], "%s: the field %s is a 32-bit Int in GitHub's schema", fset.Position(field.Pos()), gql)
			}
			return true
		})
	}
}

// graphqlNames are the GraphQL field names githubv4 reads for a struct field: its tag's
// first name, else its Go names with the first letter in lower case. A field with a json
// tag is REST's.
func graphqlNames(f *ast.Field) []string {
	if f.Tag != nil {
		tag, _ := strconv.Unquote(f.Tag.Value)
		st := reflect.StructTag(tag)
		if g, ok := st.Lookup("graphql"); ok {
			return []string{regexp.MustCompile(`^[A-Za-z_]+`).FindString(strings.TrimPrefix(g, "... on "))}
		}
		if _, ok := st.Lookup("json"); ok {
			return nil
		}
	}
	var out []string
	for _, id := range f.Names {
		out = append(out, strings.ToLower(id.Name[:1])+id.Name[1:])
	}
	return out
}
