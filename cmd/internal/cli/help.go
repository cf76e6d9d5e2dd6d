package cli

import (
	"fmt"
	"io"
)

const runUsage = `usage: pipeline-action run

Handles the event that started the workflow: reads GITHUB_EVENT_NAME and
GITHUB_EVENT_PATH, loads the config from the default branch, advances every run of the
pull request or issue the event names and writes the state comment. Inside GitHub
Actions it is the default command (the action's "command" input picks another). It
takes no arguments; the action's inputs arrive as INPUT_TOKEN, INPUT_CONFIG,
INPUT_TIMEOUT, INPUT_REQUEST_TIMEOUT, INPUT_STATE_KEY and INPUT_DRY_RUN.

With INPUT_DRY_RUN=true (the action's dry_run input) it evaluates the event as
always and writes nothing: no state, no status comment, no label, no merge, no agent
dispatched; the job log and the job summary say "dry run: would …" for each effect.
The command "pipeline-action explain" shows the same for a pull request, at any time.

exit codes: 0 handled, 1 the run failed (reported in the job log), 2 no event to handle
or bad usage
`

// helpMain prints the usage of the command args names, or the command list.
func helpMain(cmds []Command, args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usage(cmds))
		return 0
	case 1:
		if c, ok := find(cmds, args[0]); ok {
			fmt.Fprint(stdout, c.Usage)
			return 0
		}
		fmt.Fprintf(stderr, "pipeline-action help: unknown command %q%s\n\n%s", args[0], elsewhere(args[0]), usage(cmds))
		return 2
	}
	fmt.Fprintf(stderr, "pipeline-action help: one command at most\n\n%s", usage(cmds))
	return 2
}
