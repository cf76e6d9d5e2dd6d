package wfgen

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// CommandsOnly is the job's `if:` that starts no job for a comment that holds no `/pipeline`
// command, when comments matter only as commands.
const CommandsOnly = "github.event_name != 'issue_comment' || contains(github.event.comment.body, '/pipeline')"

// If is the job's `if:` cfg allows: CommandsOnly, or "" when every comment matters.
func If(cfg *lang.Config, src string) string {
	if usesOf(cfg, src, func(f string) string { return f }).commentsAll() {
		return ""
	}
	return CommandsOnly
}

// Block renders needs as the `on:` block of a workflow, each event with why it is there;
// stateBranch is the branch workflow_run leaves out (the action's own commits there start
// CI runs that name no pull request).
func Block(needs []Need, stateBranch string) string {
	var b strings.Builder
	b.WriteString("on:\n")
	for _, n := range needs {
		fmt.Fprintf(&b, "  %s:", n.Event)
		why := "   # " + n.Why
		if n.Event == "push" {
			b.WriteString(why + "\n")
			if len(n.Branches) > 0 {
				fmt.Fprintf(&b, "    branches: [%s]\n", strings.Join(quoted(n.Branches), ", "))
			} else {
				fmt.Fprintf(&b, "    branches-ignore: [%s, \"gh-readonly-queue/**\"]\n", cmp.Or(stateBranch, lang.DefaultStateBranch))
			}
			continue
		}
		if len(n.Types) == 0 && n.Event != "workflow_run" {
			b.WriteString(why + "\n")
			if n.Event == "workflow_dispatch" {
				b.WriteString("    inputs:\n")
				b.WriteString("      pipeline: {description: \"the pipeline to start\", required: true, type: string}\n")
				b.WriteString("      number: {description: \"the pull request or issue to start it on\", required: true, type: string}\n")
			}
			continue
		}
		b.WriteString(why + "\n")
		if n.Event == "workflow_run" {
			fmt.Fprintf(&b, "    workflows: [%s]\n", strings.Join(quoted(n.Workflows), ", "))
		}
		fmt.Fprintf(&b, "    types: [%s]\n", strings.Join(n.Types, ", "))
		if n.Event == "workflow_run" {
			fmt.Fprintf(&b, "    branches-ignore: [%s]\n", stateBranch)
		}
	}
	return b.String()
}

// quoted quotes the names YAML would not read as plain strings.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if strings.ContainsAny(n, ":#,[]{}&*!|>'\"%@`") || strings.TrimSpace(n) != n {
			out[i] = fmt.Sprintf("%q", n)
		}
	}
	return out
}

// ChecksByName reports whether a ci_status condition of cfg waits for checks by their names
// (or for every check), whose workflows the config does not name: `--ci` must.
func ChecksByName(cfg *lang.Config) bool {
	return usesOf(cfg, "", func(f string) string { return f }).statuses
}
