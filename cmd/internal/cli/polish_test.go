package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// help has its own usage, printed on stdout with exit 0 for help --help, -h and help help,
// as for every other command.
func TestHelpOfHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "--help"}, {"help", "-h"}, {"help", "help"}, {"--help", "help"}, {"-h", "--help"}} {
		code, stdout, stderr := mainOut(args...)
		assert.Equal(t, 0, code, "%v: %s", args, stderr)
		assert.Empty(t, stderr, "%v", args)
		assert.Equal(t, helpUsage, stdout, "%v", args)
	}
	assert.True(t, strings.HasPrefix(helpUsage, "usage: pipeline-action help"))
}

// A mistyped command, run or asked help for, names the command it is closest to; a name
// close to none names none.
func TestUnknownCommandDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"valdate"}, `pipeline-action: unknown command "valdate"; did you mean "validate"?` + "\n\n"},
		{[]string{"simualte", "examples/auto-merge"}, `unknown command "simualte"; did you mean "simulate"?` + "\n\n"},
		{[]string{"help", "statuss"}, `pipeline-action help: unknown command "statuss"; did you mean "status"?` + "\n\n"},
		{[]string{"hlep"}, `unknown command "hlep"; did you mean "help"?`},
		{[]string{"frobnicate"}, `pipeline-action: unknown command "frobnicate"` + "\n\n"},
	} {
		code, stdout, stderr := mainOut(tt.args...)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Empty(t, stdout, "%v", tt.args)
		assert.Contains(t, stderr, tt.want, "%v", tt.args)
		assert.Contains(t, stderr, "usage: pipeline-action [command]", "%v", tt.args)
	}
}

// The image's binary suggests a command of the CLI it does not have, and says where it is.
func TestImageSuggestsACommandOfTheCLI(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(Action(), []string{"simulat"}, nil, &out, &errOut, func(string) string { return "" })
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), `unknown command "simulat"; did you mean "simulate"? It is a command of the CLI (go install `+cliPackage+`@latest), not of the action's image`)
	errOut.Reset()
	Run(Action(), []string{"valiate"}, nil, &out, &errOut, func(string) string { return "" })
	assert.Contains(t, errOut.String(), `unknown command "valiate"; did you mean "validate"?`+"\n")
}

// badConfigs are configs with a mistake of each kind the loader reports.
var badConfigs = map[string]string{
	"syntax.yaml":      "version: 1\npipelines: [\n",
	"empty.yaml":       "",
	"list.yaml":        "- a\n- b\n",
	"dup.yaml":         "version: 1\nversion: 2\npipelines: {}\n",
	"tab.yaml":         "version: 1\n\tpipelines: {}\n",
	"dup-stage.yaml":   "version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: a, type: action, action: merge_pr}\n      - {id: a, type: action, action: merge_pr}\n",
	"bad-agent.yaml":   badAgent,
	"unreachable.yaml": unreachable,
}

// positioned is an error or warning as validate's text format prints it.
var positioned = regexp.MustCompile(`^[^\s:]+\.yaml:\d+:\d+: \S`)

// Every error and warning validate prints reads file:line:col: message, and a position a
// message refers to is written the same way.
func TestValidateErrorsReadFileLineCol(t *testing.T) {
	dir := writeFiles(t, badConfigs)
	for name := range badConfigs {
		code, stdout, stderr := runMain(t, dir, "validate", name)
		assert.Equal(t, 1, code+boolInt(name == "unreachable.yaml"), "%s: %s", name, stderr)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		require.NotEmpty(t, lines)
		for _, line := range lines[:len(lines)-1] {
			assert.Regexp(t, positioned, line, name)
			assert.NotRegexp(t, `line:\d|line \d`, line, name)
		}
		assert.True(t, strings.HasPrefix(lines[len(lines)-1], "checked "+name+": "), name)
	}
	_, stdout, _ := runMain(t, dir, "validate", "dup.yaml")
	assert.Contains(t, stdout, `dup.yaml:2:1: key "version" is duplicated in the config; previously defined at dup.yaml:1:1 [key]`)
	_, stdout, _ = runMain(t, dir, "validate", "dup-stage.yaml")
	assert.Contains(t, stdout, `dup-stage.yaml:7:14: stage id "a" is duplicated in pipeline "p"; previously defined at dup-stage.yaml:6:14 [id]`)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// --format github changes how validate prints, never how it exits: with and without
// --strict, wherever the flags stand, for clean, warned, broken and unreadable configs.
func TestValidateGitHubFormatExitsAsText(t *testing.T) {
	files := map[string]string{"clean.yaml": cleanConfig}
	for k, v := range badConfigs {
		files[k] = v
	}
	dir := writeFiles(t, files)
	for _, paths := range [][]string{{"clean.yaml"}, {"unreachable.yaml"}, {"bad-agent.yaml"}, {"syntax.yaml"}, {"nope.yaml"},
		{"clean.yaml", "unreachable.yaml"}, {"unreachable.yaml", "bad-agent.yaml"}, {"clean.yaml", "nope.yaml"}} {
		for _, strict := range [][]string{nil, {"--strict"}} {
			text := append(append([]string{"validate"}, strict...), paths...)
			want, _, _ := runMain(t, dir, text...)
			for _, github := range [][]string{
				append(append([]string{"validate"}, strict...), append([]string{"--format", "github"}, paths...)...),
				append(append([]string{"validate", "--format=github"}, paths...), strict...),
				append(append(append([]string{"validate"}, paths...), "--format", "github"), strict...),
			} {
				got, stdout, stderr := runMain(t, dir, github...)
				assert.Equal(t, want, got, "%v exits as %v; stdout:\n%s\nstderr:\n%s", github, text, stdout, stderr)
			}
		}
	}
	code, _, _ := runMain(t, dir, "validate", "--strict", "--format", "github", "unreachable.yaml")
	assert.Equal(t, 1, code, "a warning fails under --strict")
}
