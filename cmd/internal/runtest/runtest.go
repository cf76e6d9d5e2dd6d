// Package runtest is the job a test runs the action in: the event file and environment
// GitHub Actions gives a job of acme/widgets, pointed at a fake GitHub. Tests only: the
// action never imports it.
package runtest

import (
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
)

// Repo is the repository every job of these tests runs in.
const Repo = "acme/widgets"

// Fake is a fake GitHub with Repo (default branch main) and the writers alice and dev.
// GitHub's clock and the runner's are one: a run's number counts the minutes since the
// pull request was created.
func Fake(tb testing.TB) *ghfake.Server {
	tb.Helper()
	f := faketest.New(tb)
	f.SetClock(time.Now)
	f.AddRepo(Repo, "main")
	f.AddUser("alice", "write")
	f.AddUser("dev", "write")
	return f
}

// Job writes ev into dir as the event of run id and returns the environment of the job
// that delivers it to f with token.
func Job(tb testing.TB, f *ghfake.Server, dir string, id int, ev ghfake.Event, token string) map[string]string {
	tb.Helper()
	path := filepath.Join(dir, "event-"+strconv.Itoa(id)+".json")
	require.NoError(tb, os.WriteFile(path, ev.Payload, 0o600))
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": ev.Name, "GITHUB_EVENT_PATH": path,
		"GITHUB_REPOSITORY": Repo, "GITHUB_RUN_ID": strconv.Itoa(id),
		"GITHUB_API_URL": f.URL + "/api/v3", "GITHUB_GRAPHQL_URL": f.URL + "/api/graphql",
		"INPUT_TOKEN": token,
	}
}

// Files gives env the step output and job summary files of run id, created empty in dir.
func Files(tb testing.TB, env map[string]string, dir string, id int) (outputs, summary string) {
	tb.Helper()
	outputs = filepath.Join(dir, "output-"+strconv.Itoa(id))
	summary = filepath.Join(dir, "summary-"+strconv.Itoa(id))
	for _, p := range []string{outputs, summary} {
		require.NoError(tb, os.WriteFile(p, nil, 0o600))
	}
	env["GITHUB_OUTPUT"], env["GITHUB_STEP_SUMMARY"] = outputs, summary
	return outputs, summary
}

// Read returns the text of the file at path: what a job wrote, a doc or a config.
func Read(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	require.NoError(tb, err)
	return string(b)
}

// Main is the action's entry point as a job runs it: its output streams and environment.
type Main func(stdout, stderr io.Writer, getenv func(string) string) int

// Deliver runs main as the job of run id that delivers ev to f, its environment changed
// by edit first when given, and returns the exit code, the job log, the step outputs and
// the job summary.
func Deliver(tb testing.TB, f *ghfake.Server, dir string, id int, ev ghfake.Event, edit func(env map[string]string), main Main) (code int, log, outputs, summary string) {
	tb.Helper()
	env := Job(tb, f, dir, id, ev, f.BotToken())
	out, sum := Files(tb, env, dir, id)
	if edit != nil {
		edit(env)
	}
	var buf bytes.Buffer
	code = main(&buf, &buf, func(k string) string { return env[k] })
	return code, buf.String(), Read(tb, out), Read(tb, sum)
}

// StalledServer is a loopback server that accepts connections and never answers them; it
// returns its base URL.
func StalledServer(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never read nor answered
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// Command is the environment a command of the action's CLI (report, explain, status) runs
// in against f in Repo, as token.
func Command(f *ghfake.Server, token string) map[string]string {
	return map[string]string{"GITHUB_REPOSITORY": Repo, "GITHUB_TOKEN": token,
		"GITHUB_API_URL": f.URL + "/api/v3", "GITHUB_GRAPHQL_URL": f.URL + "/api/graphql"}
}

// Harness is a fake GitHub with Repo and a job runner pointed at it: each delivery is the
// next run of the workflow, in Dir.
type Harness struct {
	T     testing.TB
	Fake  *ghfake.Server
	Dir   string
	RunID int
	// Main is what a job runs.
	Main Main
}

// NewHarness starts a fake GitHub with Repo whose jobs run main.
func NewHarness(tb testing.TB, main Main) *Harness {
	tb.Helper()
	return &Harness{T: tb, Fake: Fake(tb), Dir: tb.TempDir(), Main: main}
}

// Deliver runs ev through Main as the next job and returns the exit code, the job log, the
// step outputs and the job summary.
func (h *Harness) Deliver(ev ghfake.Event) (code int, log, outputs, summary string) {
	h.T.Helper()
	return h.DeliverWith(ev, nil)
}

// DeliverWith is Deliver with the job's environment changed by edit first.
func (h *Harness) DeliverWith(ev ghfake.Event, edit func(env map[string]string)) (code int, log, outputs, summary string) {
	h.T.Helper()
	h.RunID++
	return Deliver(h.T, h.Fake, h.Dir, h.RunID, ev, edit, h.Main)
}

// OpenPR7 delivers the opening of #7 by dev in Repo, which the job must take (exit 0),
// and returns the job log: the first event of most runs.
func (h *Harness) OpenPR7() string {
	h.T.Helper()
	code, log, _, _ := h.Deliver(h.Fake.OpenPR(Repo, ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(h.T, 0, code, log)
	return log
}

// Build builds the main package in dir as a release does (-trimpath, stripped, no cgo, the
// version set with -X) and returns the binary's path.
func Build(tb testing.TB, dir, version string) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "pipeline-action")
	build := exec.Command("go", "build", "-trimpath",
		"-ldflags=-s -w -X github.com/org/pipeline-action/cmd/internal/cli.version="+version, "-o", bin, dir)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(tb, err, string(out))
	return bin
}

// AssertMasked holds a job log to the promise: key appears only in the command that
// tells the runner to mask it, and that command is there.
func AssertMasked(tb testing.TB, log, key string) {
	tb.Helper()
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, key) {
			assert.Equal(tb, "::add-mask::"+key, line, "the state key is printed only to mask it")
		}
	}
	assert.Contains(tb, log, "::add-mask::"+key, "masked at once")
}
