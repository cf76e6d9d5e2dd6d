package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

const runUsage = `usage: pipeline-action run

Handles the event that started the workflow: reads GITHUB_EVENT_NAME and
GITHUB_EVENT_PATH, loads the config from the default branch, advances every run of the
pull request or issue the event names and writes the state comment. Inside GitHub
Actions it is the default command (the action's "command" input picks another). It
takes no arguments; the action's inputs arrive as INPUT_TOKEN, INPUT_CONFIG,
INPUT_TIMEOUT and INPUT_REQUEST_TIMEOUT.

exit codes: 0 handled, 1 the run failed (reported in the job log), 2 no event to handle
or bad usage
`

const simulateUsage = `usage: pipeline-action simulate DIR [flags]
       pipeline-action simulate --config F --scenario S [flags]

Plays DIR/scenario.yaml against DIR/pipelines.yaml (or the scenario's config:) on a
fake GitHub, through the same code path as run: prints what each step did and the
state comment after it, then checks the expectations (expect steps and the final
expect).

flags:
  --config F     the config: a file, or a directory holding .github/pipelines.yaml
                 and/or .github/pipelines/*.yaml, or else pipelines.yaml
  --scenario S   the scenario file (default DIR/scenario.yaml)
  --stats        print the API calls of every step, by kind
  -v             print the job log of every invocation
  -q             do not print the state comment after each step

exit codes: 0 every expectation holds, 1 one does not, 2 the scenario or config is
wrong (a mistake in either, or a scenario that expects nothing)
`

// commandUsage is the usage of each command, for "help COMMAND" and "COMMAND --help".
var commandUsage = map[string]string{
	"run":      runUsage,
	"simulate": simulateUsage,
	"report":   reportUsage,
	"sweep":    sweepUsage,
	"validate": validateUsage,
	"graph":    graphUsage,
	"status":   statusUsage,
	"doctor":   doctorUsage,
	"version":  versionUsage,
}

// helpMain prints the usage of the command args name, or the command list.
func helpMain(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usage)
		return 0
	case 1:
		if u, ok := commandUsage[args[0]]; ok {
			fmt.Fprint(stdout, u)
			return 0
		}
		fmt.Fprintf(stderr, "pipeline-action help: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	fmt.Fprintf(stderr, "pipeline-action help: one command at most\n\n%s", usage)
	return 2
}

// newFlagSet returns a flag set that prints its errors on stderr and leaves the usage
// to parseFlags.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {}
	return fl
}

// parseFlags parses args with fl, flags wherever they stand among the positional
// arguments ("validate a.yaml --strict b.yaml"), and returns the positional ones. With
// -h or --help it prints usage on stdout and returns exit code 0; with a bad flag, the
// error and usage on stderr and exit code 2; ok is false in both cases.
func parseFlags(fl *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (rest []string, code int, ok bool) {
	for {
		err := fl.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprint(stdout, usage)
			return nil, 0, false
		case err != nil:
			fmt.Fprint(stderr, usage)
			return nil, 2, false
		}
		if fl.NArg() == 0 {
			return rest, 0, true
		}
		rest, args = append(rest, fl.Arg(0)), fl.Args()[1:]
	}
}
