package cli

import (
	"fmt"
	"io"

	"github.com/org/pipeline-action/engine/lang"
)

const runUsage = `usage: pipeline-action run

Handles the event that started the workflow: reads GITHUB_EVENT_NAME and
GITHUB_EVENT_PATH, loads the config from the default branch, advances every run of the
pull request or issue the event names and writes the state comment. Inside GitHub
Actions it is the default command (the action's "command" input picks another). It
takes no arguments; it reads the action's inputs from the environment:

  INPUT_TOKEN               the token (default GITHUB_TOKEN)
  INPUT_CONFIG              the config (default .github/pipelines.yaml, with
                            .github/pipelines/*.yaml)
  INPUT_TIMEOUT             how long the invocation may take (default 5m)
  INPUT_REQUEST_TIMEOUT     how long a request may go unanswered (default 30s)
  INPUT_STATE_KEY           the state key that signs and checks the state (none by
                            default); INPUT_STATE_KEY_PREVIOUS, keys still trusted
                            during a rotation
  INPUT_DRY_RUN             true: evaluate and write nothing (default false)
  PIPELINE_SECRET_<NAME>    the secret {{ secrets.NAME }} of a webhook stage

and GitHub's GITHUB_API_URL, GITHUB_GRAPHQL_URL, GITHUB_SERVER_URL, GITHUB_REPOSITORY,
GITHUB_WORKSPACE, GITHUB_RUN_ID, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.

With INPUT_DRY_RUN=true (the action's dry_run input) it evaluates the event as
always and writes nothing: no state, no status comment, no label, no merge, no agent
dispatched; the job log and the job summary say "dry run: would …" for each effect.
The command "pipeline-action explain" shows the same for a pull request, at any time.

exit codes: 0 handled, 1 the run failed (reported in the job log), 2 no event to handle
or bad usage
`

const helpUsage = `usage: pipeline-action help [COMMAND]

Prints the list of commands, or the usage of COMMAND (as COMMAND --help does).

exit codes: 0 printed, 2 an unknown command
`

// helpMain prints the usage of the command args names, or the command list.
func helpMain(cmds []Command, args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usage(cmds))
		return 0
	case 1:
		if isHelp(args[0]) {
			fmt.Fprint(stdout, helpUsage)
			return 0
		}
		if c, ok := find(cmds, args[0]); ok {
			fmt.Fprint(stdout, c.Usage)
			return 0
		}
		fmt.Fprintf(stderr, "pipeline-action help: unknown command %q%s\n\n%s", args[0], unknownHint(cmds, args[0]), usage(cmds))
		return 2
	}
	fmt.Fprintf(stderr, "pipeline-action help: one command at most\n\n%s", usage(cmds))
	return 2
}

// isHelp says whether a word asks for help: the help command itself, or its flags.
func isHelp(word string) bool {
	switch word {
	case "help", "-h", "--help", "-help":
		return true
	}
	return false
}

// unknownHint is what follows "unknown command NAME": the command of this binary name is
// closest to, or where a command of the CLI missing from this binary is found.
func unknownHint(cmds []Command, name string) string {
	if hint := elsewhere(name); hint != "" {
		return hint
	}
	names := []string{"help"}
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if s := lang.Suggest(name, names); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	names = names[:0]
	for _, c := range CLI(nil, "") {
		names = append(names, c.Name)
	}
	if s := lang.Suggest(name, names); s != "" {
		return fmt.Sprintf("; did you mean %q? It is a command of the CLI (go install %s@latest), not of the action's image", s, cliPackage)
	}
	return ""
}
