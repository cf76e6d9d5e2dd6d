package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Command is one command of a binary's command table.
type Command struct {
	Name string
	// List is the command's lines in the usage's command list, each indented by two
	// spaces, the description at column 27.
	List string
	// Usage is what `help NAME` and `NAME --help` print.
	Usage string
	Main  func(ctx context.Context, env Env) int
}

// Env is what a command reads and writes: its arguments (after its name), the standard
// streams and the environment, read only through Getenv.
type Env struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

const (
	usageHead = "usage: pipeline-action [command] [flags]\n\ncommands:\n"
	usageHelp = "  help [COMMAND]          print this, or the usage of COMMAND (as COMMAND --help does)\n"
	usageTail = "\nexit codes: 0 success, 1 failure (reported), 2 bad usage or input\n"
)

// usage is the command list of cmds.
func usage(cmds []Command) string {
	var b strings.Builder
	b.WriteString(usageHead)
	for _, c := range cmds {
		b.WriteString(c.List)
	}
	b.WriteString(usageHelp)
	b.WriteString(usageTail)
	return b.String()
}

func find(cmds []Command, name string) (Command, bool) {
	for _, c := range cmds {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Run runs the command of args[0] from cmds and returns the exit code. Without a
// command, the action's `command` input (INPUT_COMMAND) picks it, and inside GitHub
// Actions run is the default.
func Run(cmds []Command, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	name := ""
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if name == "" {
		name = getenv("INPUT_COMMAND")
	}
	if name == "" && getenv("GITHUB_ACTIONS") == "true" {
		name = "run"
	}
	if isHelp(name) {
		return helpMain(cmds, args, stdout, stderr)
	}
	switch name {
	case "--version":
		name = "version"
	case "":
		fmt.Fprint(stderr, usage(cmds))
		return 2
	}
	c, ok := find(cmds, name)
	if !ok {
		fmt.Fprintf(stderr, "pipeline-action: unknown command %q%s\n\n%s", name, unknownHint(cmds, name), usage(cmds))
		return 2
	}
	return c.Main(context.Background(), Env{Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv})
}

// elsewhere says where a command of the CLI missing from this binary's table is found.
func elsewhere(name string) string {
	if _, ok := find(CLI(nil, ""), name); !ok {
		return ""
	}
	return fmt.Sprintf(": %s is a command of the CLI (go install %s@latest), not of the action's image", name, cliPackage)
}
