package ghapi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewConfigRefusesSymlinks(t *testing.T) {
	text := "version: 1\n"
	dir := &treeFields{Oid: strings.Repeat("b", 40), Entries: []treeEntryNode{{Name: "a.yaml", Type: "blob", Mode: modeSymlink}}}
	dir.Entries[0].Object = &struct {
		Blob blobFields `graphql:"... on Blob"`
	}{Blob: blobFields{Oid: strings.Repeat("c", 40), Text: &text}}
	_, err := newConfig(".github/pipelines.yaml", nil, dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), ".github/pipelines/a.yaml is a symbolic link")
}

func TestParseConfigID(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	for _, tt := range []struct {
		id, blob, tree string
		ok             bool
	}{
		{a, a, "", true},
		{"tree:" + b, "", b, true},
		{a + "+tree:" + b, a, b, true},
		{strings.Repeat("a", 64), strings.Repeat("a", 64), "", true}, // SHA-256 repositories
		{"tree:" + b + "+" + a, "", "", false},
		{a + "+" + a, "", "", false},
		{"tree:" + b + "+tree:" + b, "", "", false},
		{"", "", "", false},
		{strings.ToUpper(a), "", "", false},
		{a + "\n", "", "", false},
	} {
		blob, tree, ok := parseConfigID(tt.id)
		assert.Equal(t, tt.ok, ok, tt.id)
		assert.Equal(t, tt.blob, blob, tt.id)
		assert.Equal(t, tt.tree, tree, tt.id)
	}
}
