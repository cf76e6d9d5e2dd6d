package schemafile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// env is the variable the tests point at a schema.
const env = "GHFAKE_SCHEMA"

// TestFindSchemaInRepository checks that the full schema is the project's own copy, found at the
// root of this module, so that tests need nothing outside the repository.
func TestFindSchemaInRepository(t *testing.T) {
	t.Setenv(env, "")
	path, ok := Find(env)
	require.True(t, ok)
	root, err := filepath.Abs("../../../../..")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "testdata", "github", "graphql", "schema.graphql"), path)

	t.Setenv(env, "/elsewhere/schema.graphql")
	path, ok = Find(env)
	assert.True(t, ok)
	assert.Equal(t, "/elsewhere/schema.graphql", path, "the variable is used as given")
}

// TestModuleRoot checks that only a go.mod declaring this module makes a directory the root the
// schema is looked for in: another project's testdata is never taken.
func TestModuleRoot(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	sub := filepath.Join(other, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n\ngo 1.22\n"), 0o644))
	_, ok := moduleRoot(sub)
	assert.False(t, ok, "a go.mod of another module")

	require.NoError(t, os.WriteFile(filepath.Join(other, "go.mod"), []byte("// x\nmodule \""+modulePath+"\"\n"), 0o644))
	root, ok := moduleRoot(sub)
	assert.True(t, ok)
	assert.Equal(t, other, root)

	_, ok = moduleRoot(dir)
	assert.False(t, ok, "no go.mod above")

	b, err := os.ReadFile("../../../../../go.mod")
	require.NoError(t, err)
	assert.True(t, modfileDeclares(b, modulePath), "modulePath is the module go.mod declares")
}
