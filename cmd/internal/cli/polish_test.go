package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
		{[]string{"help", "stauts"}, `pipeline-action help: unknown command "stauts"; did you mean "status"?` + "\n\n"},
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
