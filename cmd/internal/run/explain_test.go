package run

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
)

// explainOn runs explain against h's fake with the action's token, which may write.
func (h *harness) explainOn(args ...string) (code int, stdout, stderr string) {
	env := runtest.Command(h.Fake, h.Fake.BotToken())
	var out, errOut bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &out, Now: time.Now}
	code = r.ExplainMain(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestExplainWithoutConfig: a repository without a config has nothing to explain, and says so.
func TestExplainWithoutConfig(t *testing.T) {
	h := newHarness(t, "")
	h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
	code, out, _ := h.explainOn("--pr", "7")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Nothing to explain: no config")
	assert.Contains(t, out, "Writes: none (explain never writes)")
	assert.Empty(t, writesSeen(h.Fake))
}

// TestExplainOfNoPullRequest: a number that is no pull request fails with exit 1, the
// job log on stderr saying why, and nothing on stdout.
func TestExplainOfNoPullRequest(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	code, out, errOut := h.explainOn("--pr", "99")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "::error::acme/widgets#99")
	assert.Empty(t, writesSeen(h.Fake))
}

// TestExplainEnvOverridesDryRun: explain is dry whatever INPUT_DRY_RUN says, and takes
// GITHUB_TOKEN as the token input.
func TestExplainEnvOverridesDryRun(t *testing.T) {
	env := explainEnv(func(k string) string {
		return map[string]string{"INPUT_DRY_RUN": "false", "GITHUB_TOKEN": "t", "INPUT_CONFIG": "a.yaml"}[k]
	}, "")
	assert.Equal(t, "true", env("INPUT_DRY_RUN"))
	assert.Equal(t, "t", env("INPUT_TOKEN"))
	assert.Equal(t, "a.yaml", env("INPUT_CONFIG"))
	assert.Equal(t, "b.yaml", explainEnv(env, "b.yaml")("INPUT_CONFIG"))
}

// TestTerminalSafe: what explain prints carries no control character a title or a label
// could bring to the terminal.
func TestTerminalSafe(t *testing.T) {
	assert.Equal(t, "a ?[31mred?\n\nb\tc?", TerminalSafe("a \x1b[31mred\u009b\n\nb\tc\x07"))
}
