// Command pipeline-action runs review-and-merge pipelines on GitHub pull requests.
package main

import (
	"os"

	"github.com/org/pipeline-action/cmd/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
