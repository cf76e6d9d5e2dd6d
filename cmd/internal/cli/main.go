package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/org/pipeline-action/cmd/internal/doctor"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/sim"
)

const usage = `usage: pipeline-action [command] [flags]

commands:
  run                     handle the event of GITHUB_EVENT_NAME (the default inside GitHub Actions)
  report --run ID --stage ID --attempt N --nonce N --verdict V [--outputs FILE] [--pr N]
                          report an agent's verdict back to its run
  sweep                   advance the runs whose deadline passed (on a schedule; reads index.json)
  simulate DIR            play DIR/scenario.yaml against DIR/pipelines.yaml on a fake GitHub
  simulate --config F --scenario S
  validate [PATH...] [--format text|github] [--strict]
                          check configs: files, or directories holding .github/pipelines.yaml
                          and/or .github/pipelines/*.yaml (default .)
  status [--repo OWNER/NAME] [--branch BRANCH]
                          list the open runs (index.json on the state branch)
  doctor [--repo OWNER/NAME] [--pr N]
                          check a live repository: config, token scopes, settings (writes nothing)
  graph [PATH] [--pipeline NAME]
                          print Mermaid flowcharts of the pipelines (default .)
  version                 print the version
  help [COMMAND]          print this, or the usage of COMMAND (as COMMAND --help does)

exit codes: 0 success, 1 failure (reported), 2 bad usage or input
`

// Main runs the command line and returns the exit code. Environment is read only
// through getenv.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	if cmd == "" {
		// Inside Actions the `command` input picks the subcommand; run is the default.
		cmd = getenv("INPUT_COMMAND")
	}
	if cmd == "" && getenv("GITHUB_ACTIONS") == "true" {
		cmd = "run"
	}
	ctx := context.Background()
	switch cmd {
	case "run":
		rest, code, ok := run.ParseFlags(run.NewFlagSet("run", stderr), runUsage, args, stdout, stderr)
		if !ok {
			return code
		}
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "pipeline-action run: takes no arguments, got %q\n\n%s", rest, runUsage)
			return 2
		}
		return newRunner(getenv, stdout).Run(ctx)
	case "sweep":
		return newRunner(getenv, stdout).SweepMain(ctx, args, stdout, stderr)
	case "simulate":
		return sim.Main(ctx, args, stdout, stderr)
	case "report":
		return newRunner(getenv, stdout).ReportCommand(ctx, args, stdin, stdout, stderr)
	case "validate":
		return validateMain(args, stdout, stderr)
	case "graph":
		return graphMain(args, stdout, stderr)
	case "status":
		return statusMain(ctx, args, stdout, stderr, getenv)
	case "doctor":
		return doctor.Main(ctx, args, stdout, stderr, getenv)
	case "version", "--version":
		return versionMain(args, stdout, stderr)
	case "help", "-h", "--help", "-help":
		return helpMain(args, stdout, stderr)
	case "":
		fmt.Fprint(stderr, usage)
		return 2
	default:
		fmt.Fprintf(stderr, "pipeline-action: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// newRunner is one invocation of the action by this binary.
func newRunner(getenv func(string) string, out io.Writer) *run.Runner {
	return &run.Runner{Getenv: getenv, Out: out, Now: time.Now, Version: Version()}
}
