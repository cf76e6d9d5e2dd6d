package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
	"github.com/org/pipeline-action/cmd/internal/run"
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
	f := faketest.New(t)
	// GitHub's clock and the runner's are one: a run's number counts the minutes since
	// the pull request was created.
	f.SetClock(time.Now)
	f.AddRepo("acme/widgets", "main")
	f.AddUser("alice", "write")
	f.AddUser("dev", "write")
	if config != "" {
		f.SetFile("acme/widgets", "main", run.DefaultConfigPath, config)
	}
	return &harness{t: t, fake: f, dir: t.TempDir()}
}

// exampleConfig is the config of an example, the config most tests run with.
const exampleConfig = "../../../examples/auto-merge/pipelines.yaml"

func exampleYAML(t *testing.T) string {
	b, err := os.ReadFile(exampleConfig)
	require.NoError(t, err)
	return string(b)
}

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
	path := filepath.Join(h.dir, "event-"+strconv.Itoa(h.runID)+".json")
	require.NoError(h.t, os.WriteFile(path, ev.Payload, 0o600))
	out, sum := filepath.Join(h.dir, "output-"+strconv.Itoa(h.runID)), filepath.Join(h.dir, "summary-"+strconv.Itoa(h.runID))
	for _, p := range []string{out, sum} {
		require.NoError(h.t, os.WriteFile(p, nil, 0o600))
	}
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": ev.Name, "GITHUB_EVENT_PATH": path,
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_RUN_ID": strconv.Itoa(h.runID),
		"GITHUB_API_URL": h.fake.URL + "/api/v3", "GITHUB_GRAPHQL_URL": h.fake.URL + "/api/graphql",
		"GITHUB_OUTPUT": out, "GITHUB_STEP_SUMMARY": sum, "INPUT_TOKEN": h.fake.BotToken(),
	}
	if edit != nil {
		edit(env)
	}
	var buf bytes.Buffer
	code = Main(nil, nil, &buf, &buf, func(k string) string { return env[k] })
	o, err := os.ReadFile(out)
	require.NoError(h.t, err)
	s, err := os.ReadFile(sum)
	require.NoError(h.t, err)
	return code, buf.String(), string(o), string(s)
}
