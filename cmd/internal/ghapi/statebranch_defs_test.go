package ghapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/state"
)

// The facts query names the definitions record's path literally: it must be the file the
// store writes.
func TestDefinitionsFileInFactsQuery(t *testing.T) {
	commit, _ := reflect.TypeOf(stateRef{}).Field(0).Type.Elem().FieldByName("Commit")
	for _, name := range []string{"Defs", "DefsLog"} {
		f, ok := commit.Type.FieldByName(name)
		assert.True(t, ok, name)
		assert.True(t, strings.Contains(f.Tag.Get("graphql"), `"`+state.DefinitionsFile+`"`), f.Tag.Get("graphql"))
	}
}
