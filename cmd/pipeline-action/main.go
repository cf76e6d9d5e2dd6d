// Command pipeline-action runs review-and-merge pipelines on GitHub pull requests: the
// CLI users install, with every command, simulate included. The action's image runs
// cmd/pipeline-action-image, the same commands without the simulator.
package main

import (
	"os"

	"github.com/org/pipeline-action/cmd/internal/cli"
	"github.com/org/pipeline-action/cmd/internal/sim"
)

func main() {
	os.Exit(cli.Run(cli.CLI(sim.Main, sim.Usage), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
