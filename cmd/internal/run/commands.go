package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// The `command` check runs a shell command of the config (from the default branch) on the
// pull request's code. That code is its author's: it runs only when the config sets
// settings.allow_commands, never when the head lives in a fork, and only in a workspace that
// is a checkout of exactly the head commit (actions/checkout with `ref:` the head SHA) whose
// git config holds no credentials (`persist-credentials: false`), with an environment that
// holds no token, and only when the action acts with the Actions GITHUB_TOKEN: the command
// runs as the same user as the action and could read its process's environment, so no
// token with more power than a branch's author has already (a personal or an App's token)
// may be there. Each command has its timeout (default 5 minutes, never past the
// invocation's deadline); the end of its output goes into the gate's message.

// actionsBot is the login of the Actions GITHUB_TOKEN.
const actionsBot = "github-actions[bot]"

// defaultCommandTimeout is a command's timeout when its check gives none.
const defaultCommandTimeout = 5 * time.Minute

// maxCommandOutput is how much of the end of a command's output its result keeps.
const maxCommandOutput = 1500

// commandCheck is a compiled `command` check.
type commandCheck interface {
	Run() string
	Timeout() time.Duration
}

// commandsToRun lists the command checks of the configs in use, once per command line.
func commandsToRun(cfg *lang.Config) []commandCheck {
	var out []commandCheck
	seen := map[string]bool{}
	eachCondition(cfg, func(c lang.Condition) {
		if cc, ok := c.Eval.(commandCheck); ok && c.BuiltinCheck() == "command" && !seen[cc.Run()] {
			seen[cc.Run()] = true
			out = append(out, cc)
		}
	})
	return out
}

// runCommands runs the commands of the configs' command checks on the head of the pull
// request f describes, in workspace, and records their results in f.
func runCommands(ctx context.Context, cfg *lang.Config, f *model.Facts, workspace string) {
	checks := commandsToRun(cfg)
	if len(checks) == 0 {
		return
	}
	f.PR.Commands = map[string]model.CommandResult{}
	why := commandRefusal(ctx, cfg, f, workspace)
	for _, c := range checks {
		if why != "" {
			f.PR.Commands[c.Run()] = model.CommandResult{Err: why}
			continue
		}
		f.PR.Commands[c.Run()] = runCommand(ctx, c.Run(), c.Timeout(), workspace)
	}
}

// commandRefusal says why no command may run on this pull request here, or "".
func commandRefusal(ctx context.Context, cfg *lang.Config, f *model.Facts, workspace string) string {
	pr := f.PR
	switch {
	case !cfg.Settings.AllowCommand:
		return "settings.allow_commands is not set"
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, f.Repo):
		return "the pull request's head lives in a fork; commands never run on a fork's code"
	case !model.SameIdentity(f.Viewer, actionsBot):
		// The command runs as the same user as this process, which can read its
		// environment (/proc): only the Actions token, whose powers an author who can push
		// a branch already has in the workflows of their pull request, may be there.
		return fmt.Sprintf("the action acts as %s, not with the Actions GITHUB_TOKEN: a command could read that token", f.Viewer)
	case workspace == "":
		return "there is no workspace (GITHUB_WORKSPACE) holding a checkout of the head"
	}
	head, err := gitOut(ctx, workspace, "rev-parse", "HEAD")
	if err != nil {
		return "the workspace is not a git checkout: " + err.Error()
	}
	if head != pr.HeadSHA {
		return fmt.Sprintf("the workspace holds %s, not the head %s: check it out with actions/checkout's ref: the head SHA", short(head), short(pr.HeadSHA))
	}
	if extra, _ := gitOut(ctx, workspace, "config", "--get-regexp", `^http\..*extraheader$`); extra != "" {
		return "the checkout kept its credentials in .git/config, where a command could read them: check out with persist-credentials: false"
	}
	return ""
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// gitOut runs git in dir and returns its trimmed output.
func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = commandEnv(dir)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// commandEnv is the environment commands run with: no token, no input of the action.
func commandEnv(workspace string) []string {
	return []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + workspace,
		"LANG=C.UTF-8", "CI=true", "GIT_TERMINAL_PROMPT=0"}
}

// runCommand runs line with sh in workspace, killing it and its children at its timeout.
func runCommand(ctx context.Context, line string, timeout time.Duration, workspace string) model.CommandResult {
	if timeout <= 0 {
		timeout = defaultCommandTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir, cmd.Env = workspace, commandEnv(workspace)
	var out tailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return model.CommandResult{Err: "it could not be started: " + err.Error()}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the command and what it started
		<-done
		return model.CommandResult{TimedOut: true, Err: timeout.String(), Output: out.tail()}
	}
	res := model.CommandResult{Output: out.tail()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
		if res.ExitCode < 0 {
			res.ExitCode = 128 // killed by a signal
		}
	default:
		res.Err = err.Error()
	}
	return res
}

// tailBuffer keeps the last 64 KiB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	const keep = 64 << 10
	t.b = append(t.b, p...)
	if len(t.b) > keep {
		t.b = append([]byte(nil), t.b[len(t.b)-keep:]...)
	}
	return len(p), nil
}

// tail is the end of the output, at most maxCommandOutput bytes on whole lines and runes.
func (t *tailBuffer) tail() string {
	b := bytes.TrimSpace(t.b)
	if len(b) <= maxCommandOutput {
		return strings.ToValidUTF8(string(b), "")
	}
	b = b[len(b)-maxCommandOutput:]
	if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
		b = b[i+1:]
	}
	return "…" + strings.ToValidUTF8(string(b), "")
}
