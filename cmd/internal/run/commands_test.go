package run

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

type testCommand struct {
	run     string
	timeout time.Duration
}

func (c testCommand) Run() string                          { return c.run }
func (c testCommand) Timeout() time.Duration               { return c.timeout }
func (testCommand) Evaluate(*model.Facts) model.GateResult { return model.GateResult{} }

// gitWorkspace makes a git checkout with one commit and returns it and its head.
func gitWorkspace(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	head, err := gitOut(t.Context(), dir, "rev-parse", "HEAD")
	require.NoError(t, err)
	return dir, head
}

func commandConfig(allow bool, cmds ...testCommand) *lang.Config {
	var conds []lang.Condition
	for _, c := range cmds {
		conds = append(conds, lang.Condition{Check: "command", Eval: c})
	}
	return &lang.Config{Settings: lang.Settings{AllowCommand: allow}, Pipelines: []*lang.Pipeline{{Name: "p",
		Stages: []*lang.Stage{{ID: "g", Type: lang.StageGate, Conditions: conds}}}}}
}

func headFacts(head string) *model.Facts {
	return &model.Facts{Repo: "acme/widgets", Viewer: "github-actions[bot]", PR: &model.PullRequest{Number: 7, State: model.PROpen, HeadSHA: head, HeadRepo: "acme/widgets"}}
}

func TestRunCommandsOnTheHead(t *testing.T) {
	ws, head := gitWorkspace(t)
	t.Setenv("INPUT_TOKEN", "s3cret")
	t.Setenv("GITHUB_TOKEN", "s3cret")
	cfg := commandConfig(true,
		testCommand{run: "echo hello; git rev-parse HEAD >/dev/null && exit 0"},
		testCommand{run: "echo broken >&2; exit 3"},
		testCommand{run: `echo "token=$INPUT_TOKEN$GITHUB_TOKEN"`},
		testCommand{run: "seq 1 5000"},
		testCommand{run: "sleep 30 & sleep 30; echo never", timeout: 300 * time.Millisecond},
	)
	f := headFacts(head)
	start := time.Now()
	runCommands(t.Context(), cfg, f, ws)
	assert.Less(t, time.Since(start), 10*time.Second, "the timeout kills the command and its children")
	got := f.PR.Commands
	assert.Equal(t, model.CommandResult{Output: "hello"}, got["echo hello; git rev-parse HEAD >/dev/null && exit 0"])
	assert.Equal(t, model.CommandResult{ExitCode: 3, Output: "broken"}, got["echo broken >&2; exit 3"])
	assert.Equal(t, "token=", got[`echo "token=$INPUT_TOKEN$GITHUB_TOKEN"`].Output, "no token in a command's environment")
	long := got["seq 1 5000"].Output
	assert.LessOrEqual(t, len(long), maxCommandOutput+len("…"))
	assert.True(t, strings.HasPrefix(long, "…") && strings.HasSuffix(long, "\n5000"), long[:20])
	slow := got["sleep 30 & sleep 30; echo never"]
	assert.True(t, slow.TimedOut)
	assert.Equal(t, "300ms", slow.Err)
}

func TestCommandsRefused(t *testing.T) {
	ws, head := gitWorkspace(t)
	cmd := testCommand{run: "touch ran"}
	cases := []struct {
		name  string
		allow bool
		facts func() *model.Facts
		ws    string
		setup func()
		want  string
	}{
		{"allow_commands not set", false, func() *model.Facts { return headFacts(head) }, ws, nil, "settings.allow_commands is not set"},
		{"a fork's head", true, func() *model.Facts {
			f := headFacts(head)
			f.PR.CrossRepo, f.PR.HeadRepo = true, "mallory/widgets"
			return f
		}, ws, nil, "commands never run on a fork's code"},
		{"another token", true, func() *model.Facts {
			f := headFacts(head)
			f.Viewer = "release-bot"
			return f
		}, ws, nil, "the action acts as release-bot, not with the Actions GITHUB_TOKEN"},
		{"no workspace", true, func() *model.Facts { return headFacts(head) }, "", nil, "there is no workspace"},
		{"another commit checked out", true, func() *model.Facts { return headFacts("0123456789abcdef") }, ws, nil, "not the head 0123456"},
		{"credentials kept", true, func() *model.Facts { return headFacts(head) }, ws, func() {
			out, err := exec.Command("git", "-C", ws, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic x").CombinedOutput()
			require.NoError(t, err, string(out))
		}, "persist-credentials: false"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			f := tc.facts()
			runCommands(t.Context(), commandConfig(tc.allow, cmd), f, tc.ws)
			r := f.PR.Commands["touch ran"]
			assert.Contains(t, r.Err, tc.want)
			out, _ := exec.Command("ls", ws).Output()
			assert.NotContains(t, string(out), "ran", "nothing ran")
		})
	}
}
