package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

const statusUsage = `usage: pipeline-action status [--repo OWNER/NAME] [--branch BRANCH]

Lists the open runs of a repository: the index at the head of its state branch (its
shards index/00.json to index/0f.json, and index.json of an older action), read in one
GraphQL query. One line per run: subject, pipeline, status, stage, when it last changed,
its next deadline (what the sweep acts on; "-" when it waits for no time), and its id;
then who last wrote the index, and the files left out: those GitHub did not sign as
written by the action's identity through its API.

The token comes from GITHUB_TOKEN (or the action's INPUT_TOKEN); GITHUB_GRAPHQL_URL
and GITHUB_API_URL name another GitHub than github.com.

flags:
  --repo OWNER/NAME   the repository (default GITHUB_REPOSITORY)
  --branch BRANCH     the state branch, as settings.state_branch names it
                      (default pipeline-action/state)

exit codes: 0 listed (no open run included), 1 the index could not be read, 2 bad
usage or no token
`

// statusMain prints the open runs of the index on the state branch.
func statusMain(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := run.NewFlagSet("status", stderr)
	repo := fs.String("repo", getenv("GITHUB_REPOSITORY"), "the repository, OWNER/NAME")
	branch := fs.String("branch", lang.DefaultStateBranch, "the state branch")
	rest, code, ok := run.ParseFlags(fs, statusUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "pipeline-action status: takes no arguments, got %q\n\n%s", rest, statusUsage)
		return 2
	}
	token := getenv("GITHUB_TOKEN")
	if token == "" {
		token = getenv("INPUT_TOKEN")
	}
	if token == "" {
		fmt.Fprintln(stderr, "pipeline-action status: no token: set GITHUB_TOKEN")
		return 2
	}
	if *repo == "" {
		fmt.Fprintf(stderr, "pipeline-action status: no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY\n\n%s", statusUsage)
		return 2
	}
	client, err := ghapi.New(ghapi.Options{Token: token, RESTURL: getenv("GITHUB_API_URL"), GraphQLURL: getenv("GITHUB_GRAPHQL_URL"),
		Repository: *repo})
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action status: %v\n", err)
		return 2
	}
	read, err := client.OpenRuns(ctx, *branch)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action status: %v\n", err)
		return 1
	}
	if !read.Exists {
		fmt.Fprintf(stdout, "%s has no state branch %s: no run has been saved there yet.\n", *repo, *branch)
		return 0
	}
	return printRead(stdout, stderr, read, *branch)
}

// printRead prints the open runs of the index files read on branch that the action wrote,
// who last wrote them, and the files left out. It returns the exit code: 1 when a file
// could not be read.
func printRead(stdout, stderr io.Writer, read state.BranchRead, branch string) int {
	if read.Index == nil && len(read.Shards) == 0 {
		fmt.Fprintf(stdout, "%s holds no index of open runs: no open run.\n", branch)
		return 0
	}
	got := state.ReadIndex(read, "")
	printIndex(stdout, got.Index)
	var last *state.BranchFile
	var unsigned []string
	for _, f := range got.Files {
		if last == nil || f.Date.After(last.Date) {
			last = f
		}
		if !f.Signed {
			unsigned = append(unsigned, fmt.Sprintf("%s (commit %.7s, by %s)", f.Path, f.Commit, orNobody(f.Author)))
		}
	}
	where := fmt.Sprintf("from the index on %s at %.7s", branch, read.Head)
	if last != nil {
		where += ", last written by " + orNobody(last.Author)
		if len(unsigned) == 0 {
			where += " (signed by GitHub)"
		}
	}
	open := 0
	for _, e := range got.Index.Runs {
		if !e.CommentClaim() { // a state comment still to post, not a run
			open++
		}
	}
	fmt.Fprintf(stdout, "\n%d open %s, %s.\n", open, run.Plural(open, "run", "runs"), where)
	if len(unsigned) > 0 {
		fmt.Fprintf(stdout, "NOT signed by GitHub: not written by the action through GitHub's API, do not trust them: %s.\n", strings.Join(unsigned, ", "))
	}
	for _, w := range got.Warnings {
		fmt.Fprintf(stdout, "Left out: %s.\n", w)
	}
	for _, e := range got.Errors {
		fmt.Fprintf(stderr, "pipeline-action status: %s\n", e)
	}
	if len(got.Errors) > 0 {
		return 1
	}
	return 0
}

func printIndex(w io.Writer, idx *state.Index) {
	if len(idx.Runs) == 0 {
		fmt.Fprintln(w, "No open run.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SUBJECT\tPIPELINE\tSTATUS\tSTAGE\tUPDATED\tNEXT DEADLINE\tRUN")
	for _, e := range idx.Runs {
		due := "-"
		if !e.NextDeadline.IsZero() {
			due = e.NextDeadline.UTC().Format(time.DateTime)
		}
		pipeline, stage, id := run.OneLine(e.Pipeline), run.OneLine(e.Stage), run.OneLine(e.Run)
		if e.CommentClaim() {
			pipeline, stage, id = "-", "state comment to post", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", run.OneLine(e.Subject), pipeline, run.OneLine(string(e.Status)),
			stage, e.Updated.UTC().Format(time.DateTime), due, id)
	}
	tw.Flush()
}

func orNobody(login string) string {
	if login == "" {
		return "an unknown author"
	}
	return login
}
