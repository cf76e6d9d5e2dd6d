package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/runtest"
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

	cmd := exec.Command(bin, "validate", "../../engine/lang/load/testdata/err/bad_method.yaml")
	out, _ = cmd.CombinedOutput()
	assert.Equal(t, 1, cmd.ProcessState.ExitCode())
	assert.Contains(t, string(out), `did you mean "squash"?`)
}

// TestBinaryVersionFromLdflags builds the binary as a release does and checks that
// the -X flag reaches the version (a renamed variable would make -X a silent no-op).
func TestBinaryVersionFromLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := runtest.Build(t, ".", "v9.8.7-test")
	out, err := exec.Command(bin, "version").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "v9.8.7-test\n", string(out))
}
