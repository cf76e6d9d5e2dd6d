package cli

import (
	"io"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/runtest"
)

// harness is a fake GitHub with acme/widgets and the run path pointed at it.
type harness struct {
	t     *testing.T
	fake  *ghfake.Server
	dir   string
	runID int
}

func newHarness(t *testing.T, config string) *harness {
	t.Helper()
	f := runtest.Fake(t)
	if config != "" {
		f.SetFile(runtest.Repo, "main", run.DefaultConfigPath, config)
	}
	return &harness{t: t, fake: f, dir: t.TempDir()}
}

// exampleConfig is the config of an example, the config most tests run with.
const exampleConfig = "../../../examples/auto-merge/pipelines.yaml"

func exampleYAML(t *testing.T) string { return runtest.Read(t, exampleConfig) }

// deliver runs ev through the run path and returns the exit code, the job log, the
// step outputs and the job summary.
func (h *harness) deliver(ev ghfake.Event) (code int, log, outputs, summary string) {
	h.t.Helper()
	return h.deliverWith(ev, nil)
}

// deliverWith is deliver with the environment changed by edit first.
func (h *harness) deliverWith(ev ghfake.Event, edit func(env map[string]string)) (code int, log, outputs, summary string) {
	h.t.Helper()
	h.runID++
	return runtest.Deliver(h.t, h.fake, h.dir, h.runID, ev, edit, func(stdout, stderr io.Writer, getenv func(string) string) int {
		return Main(nil, nil, stdout, stderr, getenv)
	})
}
