// Command pipeline-action-image is the binary of the action's image (Dockerfile,
// .ko.yaml): the commands a workflow runs the action with (cli.Action), sharing their
// code with the CLI of cmd/pipeline-action but linking neither the simulator nor the
// fake GitHub it plays against.
package main

import (
	"os"

	"github.com/org/pipeline-action/cmd/internal/cli"
)

func main() {
	os.Exit(cli.Run(cli.Action(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
