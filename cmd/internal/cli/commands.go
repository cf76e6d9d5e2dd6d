package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/org/pipeline-action/cmd/internal/doctor"
	"github.com/org/pipeline-action/cmd/internal/run"
)

// cliPackage is what users install to get every command.
const cliPackage = "github.com/org/pipeline-action/cmd/pipeline-action"

// Action is the command table of the action's image: what action.yml's `command`
// input runs (run, report, sweep, doctor), validate, and version, which the release
// checks. It links neither the simulator nor the fake GitHub.
func Action() []Command {
	return []Command{runCmd, reportCmd, sweepCmd, validateCmd, doctorCmd, versionCmd}
}

// SimulateFunc plays a scenario (sim.Main). The simulator is passed in, so that only
// the binary that offers simulate links it and the fake GitHub it plays against.
type SimulateFunc func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// CLI is the command table of the pipeline-action users install: the action's
// commands, simulate (simulate and its usage simUsage) and the tools for people
// (status, graph).
func CLI(simulate SimulateFunc, simUsage string) []Command {
	sim := Command{
		Name: "simulate",
		List: "  simulate DIR            play DIR/scenario.yaml against DIR/pipelines.yaml on a fake GitHub\n" +
			"  simulate --config F --scenario S\n",
		Usage: simUsage,
		Main:  func(ctx context.Context, e Env) int { return simulate(ctx, e.Args, e.Stdout, e.Stderr) },
	}
	return []Command{runCmd, reportCmd, sweepCmd, sim, validateCmd, statusCmd, auditCmd, statsCmd, explainCmd, doctorCmd, graphCmd, workflowCmd, versionCmd}
}

var runCmd = Command{
	Name:  "run",
	List:  "  run                     handle the event of GITHUB_EVENT_NAME (the default inside GitHub Actions)\n",
	Usage: runUsage,
	Main: func(ctx context.Context, e Env) int {
		rest, code, ok := run.ParseFlags(run.NewFlagSet("run", e.Stderr), runUsage, e.Args, e.Stdout, e.Stderr)
		if !ok {
			return code
		}
		if len(rest) > 0 {
			fmt.Fprintf(e.Stderr, "pipeline-action run: takes no arguments, got %q\n\n%s", rest, runUsage)
			return 2
		}
		return newRunner(e.Getenv, e.Stdout).Run(ctx)
	},
}

var reportCmd = Command{
	Name: "report",
	List: "  report --run ID --stage ID --attempt N --nonce N --verdict V [--outputs FILE] [--pr N]\n" +
		"                          report an agent's verdict back to its run\n",
	Usage: run.ReportUsage,
	Main: func(ctx context.Context, e Env) int {
		return newRunner(e.Getenv, e.Stdout).ReportCommand(ctx, e.Args, e.Stdin, e.Stdout, e.Stderr)
	},
}

var sweepCmd = Command{
	Name:  "sweep",
	List:  "  sweep                   advance the runs whose deadline passed (on a schedule; reads index.json)\n",
	Usage: run.SweepUsage,
	Main: func(ctx context.Context, e Env) int {
		return newRunner(e.Getenv, e.Stdout).SweepMain(ctx, e.Args, e.Stdout, e.Stderr)
	},
}

var validateCmd = Command{
	Name: "validate",
	List: "  validate [PATH...] [--format text|github] [--strict]\n" +
		"                          check configs: files, or directories holding .github/pipelines.yaml\n" +
		"                          and/or .github/pipelines/*.yaml (default .)\n",
	Usage: validateUsage,
	Main:  func(_ context.Context, e Env) int { return validateMain(e.Args, e.Stdout, e.Stderr) },
}

var statusCmd = Command{
	Name: "status",
	List: "  status [--repo OWNER/NAME] [--branch BRANCH]\n" +
		"                          list the open runs (index.json on the state branch)\n",
	Usage: statusUsage,
	Main:  func(ctx context.Context, e Env) int { return statusMain(ctx, e.Args, e.Stdout, e.Stderr, e.Getenv) },
}

var auditCmd = Command{
	Name: "audit",
	List: "  audit --pr N [--repo OWNER/NAME] [--format text|json]\n" +
		"                          print a pull request's (--issue: an issue's) whole trail of transitions\n",
	Usage: auditUsage,
	Main:  func(ctx context.Context, e Env) int { return auditMain(ctx, e.Args, e.Stdout, e.Stderr, e.Getenv) },
}

var statsCmd = Command{
	Name: "stats",
	List: "  stats [--repo OWNER/NAME] [--since 30d] [--format text|json|markdown]\n" +
		"                          report per pipeline: runs, time per stage, waiting, loops, errors\n",
	Usage: statsUsage,
	Main:  func(ctx context.Context, e Env) int { return statsMain(ctx, e.Args, e.Stdout, e.Stderr, e.Getenv) },
}

var explainCmd = Command{
	Name: "explain",
	List: "  explain --repo OWNER/NAME --pr N\n" +
		"                          print what every pipeline would do now on a live pull request (writes nothing)\n",
	Usage: run.ExplainUsage,
	Main: func(ctx context.Context, e Env) int {
		return newRunner(e.Getenv, e.Stdout).ExplainMain(ctx, e.Args, e.Stdout, e.Stderr)
	},
}

var doctorCmd = Command{
	Name: "doctor",
	List: "  doctor [--repo OWNER/NAME] [--pr N]\n" +
		"                          check a live repository: config, token scopes, settings (writes nothing)\n",
	Usage: doctor.Usage,
	Main:  func(ctx context.Context, e Env) int { return doctor.Main(ctx, e.Args, e.Stdout, e.Stderr, e.Getenv) },
}

var graphCmd = Command{
	Name: "graph",
	List: "  graph [PATH] [--pipeline NAME]\n" +
		"                          print Mermaid flowcharts of the pipelines (default .)\n",
	Usage: graphUsage,
	Main:  func(_ context.Context, e Env) int { return graphMain(e.Args, e.Stdout, e.Stderr) },
}

var versionCmd = Command{
	Name:  "version",
	List:  "  version                 print the version\n",
	Usage: versionUsage,
	Main:  func(_ context.Context, e Env) int { return versionMain(e.Args, e.Stdout, e.Stderr) },
}

// newRunner is one invocation of the action by this binary.
func newRunner(getenv func(string) string, out io.Writer) *run.Runner {
	return &run.Runner{Getenv: getenv, Out: out, Now: time.Now, Version: Version()}
}
