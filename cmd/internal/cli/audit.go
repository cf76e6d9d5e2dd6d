package cli

import (
	"context"
	"encoding/json"
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

const auditUsage = `usage: pipeline-action audit [--repo OWNER/NAME] (--pr N | --issue N | --number N) [--format text|json] [--branch BRANCH] [--strict]

Prints the whole trail of a pull request or an issue: every transition of each of its
runs, oldest first, with when, which run, from which stage to which, why and who. It
reads, in one GraphQL query at the head of the state branch, the subject's file (pr-7.json),
its audit (audit/pr-7/0001.jsonl …: the rows a run's history no longer holds) and its
archived runs (archive/pr-7/). --format json prints one JSON object a line: at, run,
pipeline, actor, from, to, why, and kind (loop, retry, error) on the rows that are one.

Anyone who may push can write a file on the state branch. The subject's file counts when
GitHub signed the commit that last changed it and, with a state key, when it is signed
with the key (give the key as INPUT_STATE_KEY, and INPUT_STATE_KEY_PREVIOUS, to check
it); it records the SHA-256 of each audit part and archived run the action wrote. A row
read from a file none of this vouches for is printed marked UNVERIFIED (in json, with
"unverified": why), and the files are listed after the trail.

The token comes from GITHUB_TOKEN (or the action's INPUT_TOKEN); GITHUB_GRAPHQL_URL
and GITHUB_API_URL name another GitHub than github.com.

flags:
  --repo OWNER/NAME   the repository (default GITHUB_REPOSITORY)
  --pr N              a pull request
  --issue N           an issue
  --number N          a pull request, or an issue when no pull request N has a trail
  --format FORMAT     text (default) or json
  --branch BRANCH     the state branch, as settings.state_branch names it
                      (default pipeline-action/state)
  --strict            exit 1 when a row is unverified

exit codes: 0 printed, 1 the trail could not be read (or part of it), or with --strict
a row is unverified, 2 bad usage or no token
`

// auditMain prints a subject's whole trail.
func auditMain(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := run.NewFlagSet("audit", stderr)
	repo := fs.String("repo", getenv("GITHUB_REPOSITORY"), "the repository, OWNER/NAME")
	branch := fs.String("branch", lang.DefaultStateBranch, "the state branch")
	pr := fs.Int("pr", 0, "a pull request")
	issue := fs.Int("issue", 0, "an issue")
	number := fs.Int("number", 0, "a pull request or an issue")
	format := fs.String("format", "text", "text or json")
	strict := fs.Bool("strict", false, "exit 1 when a row is unverified")
	rest, code, ok := run.ParseFlags(fs, auditUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	files, bad := auditFiles(*pr, *issue, *number)
	switch {
	case len(rest) > 0:
		bad = fmt.Sprintf("takes no arguments, got %q", rest)
	case *format != "text" && *format != "json":
		bad = fmt.Sprintf("--format is text or json, not %q", *format)
	case *repo == "":
		bad = "no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY"
	}
	if bad != "" {
		fmt.Fprintf(stderr, "pipeline-action audit: %s\n\n%s", bad, auditUsage)
		return 2
	}
	keys, err := run.KeysFromEnv(getenv, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action audit: INPUT_STATE_KEY: %v\n", err)
		return 2
	}
	client, code := commandClient("audit", getenv, *repo, stderr)
	if client == nil {
		return code
	}
	for i, file := range files {
		read, head, exists, err := client.ReadAudit(ctx, *branch, file)
		if err != nil {
			fmt.Fprintf(stderr, "pipeline-action audit: %v\n", err)
			return 1
		}
		if !exists {
			fmt.Fprintf(stderr, "%s has no state branch %s: no run has been saved there yet.\n", *repo, *branch)
			return 0
		}
		if read.File == nil && len(read.Parts) == 0 && len(read.Archives) == 0 && i+1 < len(files) {
			continue // not a pull request's: try the issue
		}
		return printTrail(stdout, stderr, trailPrint{repo: *repo, file: file, head: head, format: *format, strict: *strict, keys: keys}, read)
	}
	return 0
}

// auditFiles are the subject files to read, in order, for the flags given.
func auditFiles(pr, issue, number int) ([]string, string) {
	given := 0
	for _, n := range []int{pr, issue, number} {
		if n < 0 {
			return nil, "a number is positive"
		}
		if n > 0 {
			given++
		}
	}
	switch {
	case given != 1:
		return nil, "give one of --pr N, --issue N, --number N"
	case pr > 0:
		return []string{state.SubjectFile(true, pr)}, ""
	case issue > 0:
		return []string{state.SubjectFile(false, issue)}, ""
	}
	return []string{state.SubjectFile(true, number), state.SubjectFile(false, number)}, ""
}

// commandClient is the client of command name (audit, stats) for repo, with the token of
// the environment; nil and the exit code when there is none.
func commandClient(name string, getenv func(string) string, repo string, stderr io.Writer) (*ghapi.Client, int) {
	token := getenv("GITHUB_TOKEN")
	if token == "" {
		token = getenv("INPUT_TOKEN")
	}
	if token == "" {
		fmt.Fprintf(stderr, "pipeline-action %s: no token: set GITHUB_TOKEN\n", name)
		return nil, 2
	}
	client, err := ghapi.New(ghapi.Options{Token: token, RESTURL: getenv("GITHUB_API_URL"), GraphQLURL: getenv("GITHUB_GRAPHQL_URL"),
		Repository: repo})
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action %s: %v\n", name, err)
		return nil, 2
	}
	return client, 0
}

// trailPrint is how to print the trail of a subject's file.
type trailPrint struct {
	repo, file, head, format string
	strict                   bool
	keys                     *state.Keys
}

// printTrail prints the trail of p.file read at p.head; 1 when part of it could not be
// read, or with p.strict when a row is unverified.
func printTrail(stdout, stderr io.Writer, p trailPrint, read state.AuditRead) int {
	subject := p.repo + "#" + strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(p.file, "pr-"), "issue-"), ".json")
	rows, problems := state.Trail(subject, read, p.keys)
	var unverified []string // why, once per file
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Unverified != "" && !seen[r.Unverified] {
			seen[r.Unverified] = true
			unverified = append(unverified, r.Unverified)
		}
	}
	if p.format == "json" {
		enc := json.NewEncoder(stdout)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				fmt.Fprintf(stderr, "pipeline-action audit: %v\n", err)
				return 1
			}
		}
	} else {
		printTrailText(stdout, rows)
		fmt.Fprintf(stdout, "\n%d %s of %s, from the state branch at %.7s.\n", len(rows), run.Plural(len(rows), "transition", "transitions"), subject, p.head)
		for _, why := range unverified {
			fmt.Fprintf(stdout, "UNVERIFIED: %s.\n", run.OneLine(why))
		}
	}
	for _, problem := range problems {
		fmt.Fprintf(stderr, "pipeline-action audit: left out: %s\n", problem)
	}
	if len(problems) > 0 || p.strict && len(unverified) > 0 {
		return 1
	}
	return 0
}

func printTrailText(w io.Writer, rows []state.TrailRow) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "No transition.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tRUN\tFROM → TO\tWHY\tACTOR")
	for _, r := range rows {
		from := r.From
		if from == "" {
			from = "·"
		}
		why := run.OneLine(r.Why)
		if r.Unverified != "" {
			why = "UNVERIFIED " + why
		}
		fmt.Fprintf(tw, "%s\t%s\t%s → %s\t%s\t%s\n", r.At.UTC().Format(time.DateTime), run.OneLine(r.Run), run.OneLine(from),
			run.OneLine(r.To), why, run.OneLine(r.Actor))
	}
	tw.Flush()
}
