package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// validateMain checks config files and prints every mistake as path:line:col.
// Exit 0 clean, 1 errors found, 2 a file cannot be read.
func validateMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = []string{DefaultConfigPath}
	}
	code := 0
	for _, path := range args {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "pipeline-action: %v\n", err)
			return 2
		}
		if _, err := engine.Load(path, src, gates.Default()); err != nil {
			var list engine.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					fmt.Fprintln(stdout, e.Error())
				}
			} else {
				fmt.Fprintf(stdout, "%s: %v\n", path, err)
			}
			code = 1
		}
	}
	return code
}
