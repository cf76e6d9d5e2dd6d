package cli

import (
	"io"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
)

// harness is a fake GitHub with acme/widgets and the run path pointed at it.
type harness struct{ *runtest.Harness }

func newHarness(t *testing.T, config string) *harness {
	t.Helper()
	h := runtest.NewHarness(t, func(stdout, stderr io.Writer, getenv func(string) string) int {
		return Main(nil, nil, stdout, stderr, getenv)
	})
	if config != "" {
		h.Fake.SetFile(runtest.Repo, "main", run.DefaultConfigPath, config)
	}
	return &harness{h}
}

// exampleConfig is the config of an example, the config most tests run with.
const exampleConfig = "../../../examples/auto-merge/pipelines.yaml"

func exampleYAML(t *testing.T) string { return runtest.Read(t, exampleConfig) }

// assertStderr checks a command's stderr: empty where want is, else holding want.
func assertStderr(t *testing.T, want, stderr string) {
	t.Helper()
	if want == "" {
		assert.Empty(t, stderr)
	} else {
		assert.Contains(t, stderr, want)
	}
}
