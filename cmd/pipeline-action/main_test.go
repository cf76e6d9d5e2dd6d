package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinarySimulatesTheExample builds the real binary and plays the example with it.
func TestBinarySimulatesTheExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "pipeline-action")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	out, err = exec.Command(bin, "simulate", "../../examples/auto-merge", "--stats").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "PASS: every expectation holds")
	assert.Contains(t, string(out), "pulls/merge 1")

	cmd := exec.Command(bin, "validate", "../../engine/testdata/err/bad_method.yaml")
	out, _ = cmd.CombinedOutput()
	assert.Equal(t, 1, cmd.ProcessState.ExitCode())
	assert.Contains(t, string(out), `did you mean "squash"?`)
}
