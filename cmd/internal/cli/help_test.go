package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func mainOut(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	return code, stdout.String(), stderr.String()
}

func TestHelpListsTheCommands(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}} {
		code, stdout, stderr := mainOut(args...)
		assert.Equal(t, 0, code, "%v", args)
		assert.Empty(t, stderr, "%v", args)
		for cmd := range commandUsage {
			assert.Contains(t, stdout, "\n  "+cmd+" ", "%v lists %s", args, cmd)
		}
	}
}

// Every command prints its own usage on stdout and exits 0 for -h, --help and help
// COMMAND, wherever the flag stands among its arguments.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, cmd := range []string{"run", "simulate", "validate", "graph", "version", "report"} {
		want := commandUsage[cmd]
		assert.True(t, strings.HasPrefix(want, "usage: pipeline-action "+cmd), cmd)
		for _, args := range [][]string{{cmd, "--help"}, {cmd, "-h"}, {"help", cmd}, {cmd, "some/path", "--help"}} {
			code, stdout, stderr := mainOut(args...)
			assert.Equal(t, 0, code, "%v: %s", args, stderr)
			assert.Equal(t, want, stdout, "%v", args)
			assert.Empty(t, stderr, "%v", args)
		}
	}
}

func TestHelpMistakes(t *testing.T) {
	code, stdout, stderr := mainOut("help", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, `unknown command "frobnicate"`)

	// A bad flag prints the error and the command's usage on stderr, exit 2.
	for _, cmd := range []string{"run", "simulate", "validate", "graph", "version"} {
		code, stdout, stderr = mainOut(cmd, "--nope")
		assert.Equal(t, 2, code, cmd)
		assert.Empty(t, stdout, cmd)
		assert.Contains(t, stderr, "flag provided but not defined: -nope", cmd)
		assert.Contains(t, stderr, "usage: pipeline-action "+cmd, cmd)
	}

	code, _, stderr = mainOut("run", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "takes no arguments")

	code, _, stderr = mainOut("simulate", "a", "b")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "one DIR at most")
}
