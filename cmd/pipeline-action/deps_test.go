package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinaryLinksNoTestMachinery: the CLI embeds the fake for simulate, and the
// fake serves without the standard library's test packages, so none is linked.
func TestBinaryLinksNoTestMachinery(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, string(out))
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/org/pipeline-action/cmd/internal/ghfake", "the check means something only while the fake is linked")
	for _, p := range []string{"testing", "net/http/httptest"} {
		assert.NotContains(t, deps, p)
	}
}
