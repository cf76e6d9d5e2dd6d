package doctor

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

const Usage = `usage: pipeline-action doctor [--repo OWNER/NAME] [--pr N] [--config PATH]

Checks that a live repository is ready for the action, and writes nothing: only GET
requests and GraphQL queries are sent. One line per check, then its fix:

  ok          what holds
  problem     what does not hold
              fix: what to change
  unverified  what cannot be checked without writing, or is not read (and why)

It checks that the config on the default branch validates (path:line:col of each
error); that the token holds the read scopes the config needs, from GitHub's own
refusals (X-Accepted-GitHub-Permissions, the GraphQL errors' paths); which write
scopes the config needs (GitHub has no API that shows a workflow token's scopes, and
a write cannot be tried without writing: these are listed as unverified); that the
repository's settings allow the merge methods the config uses; and that the state
branch is not protected; that CODEOWNERS on the default branch reads whole, without a
line GitHub skips, when a gate uses codeowners_approved; that the workflows on the default branch listen to the
events the pipelines need (workflow_run naming the CI workflows of ci_status and the
agents' workflows, issue_comment for wait_for: comment, issues for issue pipelines,
a schedule running command: sweep when a pipeline has deadlines); that they deliver
every event the config acts on (its triggers, on_events, the reviews, labels and
comments its stages wait for): listened to, its action among the entry's types:
(GitHub's default types when none are listed) and not skipped by the job's or the
step's if:; that none cancels a run in progress (cancel-in-progress: a cancelled run
is a lost event); and that every dispatch: workflow agent's workflow exists on its
ref with workflow_dispatch and the inputs the action sends. With --pr, it makes the
query every run makes for that pull request, prints what it read (head, base,
mergeability, checks, reviews, labels), and evaluates its runs as an event would —
without a trigger, so no pipeline starts — and prints the runs and the effects they
would ask for, performing none.

The token comes from GITHUB_TOKEN (or the action's INPUT_TOKEN; locally:
GITHUB_TOKEN=$(gh auth token)); GITHUB_GRAPHQL_URL and GITHUB_API_URL name another
GitHub than github.com; INPUT_STATE_KEY (the action's state_key input) reads a signed
state with --pr. As a workflow step: the action with command: doctor.

flags:
  --repo OWNER/NAME   the repository (default GITHUB_REPOSITORY)
  --pr N              also read what the action reads for pull request N (default
                      the action's pr input)
  --config PATH       the config file (default the action's config input, else
                      .github/pipelines.yaml)

exit codes: 0 every check holds (unverified lines do not fail), 1 a problem, 2 bad
usage or no token
`

// A finding is one line of doctor's report.
type finding struct {
	status string // ok, problem or unverified
	what   string
	fix    string // for a problem; for unverified, what to check by hand
}

const (
	findingOK         = "ok"
	findingProblem    = "problem"
	findingUnverified = "unverified"
)

// doctor holds what one doctor invocation has read and found.
type doctor struct {
	client   *ghapi.Client
	cfgPath  string
	pr       int
	branch   string // the default branch
	settings *ghapi.RepoSettings
	cfg      *lang.Config
	keys     *state.Keys // the state key inputs, to read a signed state
	found    []finding
}

func (d *doctor) add(status, what, fix string) {
	d.found = append(d.found, finding{status: status, what: what, fix: fix})
}

// doctorMain checks a repository and prints the findings.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := run.NewFlagSet("doctor", stderr)
	repo := fs.String("repo", getenv("GITHUB_REPOSITORY"), "the repository, OWNER/NAME")
	defPR := 0
	if v := getenv("INPUT_PR"); v != "" { // the action's `pr` input, as a workflow step
		n, err := strconv.Atoi(v)
		if err != nil {
			fmt.Fprintf(stderr, "pipeline-action doctor: input pr: %q is not a number\n", v)
			return 2
		}
		defPR = n
	}
	pr := fs.Int("pr", defPR, "a pull request to read as the action does")
	defPath := getenv("INPUT_CONFIG")
	if defPath == "" {
		defPath = run.DefaultConfigPath
	}
	cfgPath := fs.String("config", defPath, "the config file")
	rest, code, ok := run.ParseFlags(fs, Usage, args, stdout, stderr)
	if !ok {
		return code
	}
	switch {
	case len(rest) > 0:
		fmt.Fprintf(stderr, "pipeline-action doctor: takes no arguments, got %q\n\n%s", rest, Usage)
		return 2
	case *pr < 0:
		fmt.Fprintf(stderr, "pipeline-action doctor: --pr must be a pull request number, got %d\n", *pr)
		return 2
	case *repo == "":
		fmt.Fprintf(stderr, "pipeline-action doctor: no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY\n\n%s", Usage)
		return 2
	}
	token := getenv("GITHUB_TOKEN")
	if token == "" {
		token = getenv("INPUT_TOKEN")
	}
	if token == "" {
		fmt.Fprintln(stderr, "pipeline-action doctor: no token: set GITHUB_TOKEN (locally: GITHUB_TOKEN=$(gh auth token))")
		return 2
	}
	client, err := ghapi.New(ghapi.Options{Token: token, RESTURL: getenv("GITHUB_API_URL"),
		GraphQLURL: getenv("GITHUB_GRAPHQL_URL"), Repository: *repo})
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action doctor: %v\n", err)
		return 2
	}
	keys, err := run.KeysFromEnv(getenv, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action doctor: INPUT_STATE_KEY: %v\n", err)
		return 2
	}
	d := &doctor{client: client, cfgPath: *cfgPath, pr: *pr, keys: keys}
	d.check(ctx)
	fmt.Fprintf(stdout, "doctor %s\n", oneLineText(*repo))
	return d.print(stdout)
}

// check runs every check in order; a check that needs what an earlier one could not read
// is not run, and says so.
func (d *doctor) check(ctx context.Context) {
	if !d.checkRepository(ctx) {
		return
	}
	configRead := d.checkConfig(ctx)
	d.checkReadScopes(ctx)
	if !configRead {
		d.add(findingUnverified, "the checks that depend on the config (write scopes, merge methods, state branch, workflows)",
			"fix the config first, then run doctor again")
		return
	}
	d.checkWriteScopes()
	d.checkMergeMethods()
	d.checkStateBranch(ctx)
	d.checkCodeOwners(ctx)
	d.checkWorkflows(ctx)
	if d.pr > 0 {
		d.checkPR(ctx)
	}
}

// print writes the findings and returns the exit code: 1 when one is a problem.
func (d *doctor) print(w io.Writer) int {
	problems := 0
	for _, f := range d.found {
		fmt.Fprintf(w, "%-11s %s\n", f.status, oneLineText(f.what))
		if f.fix != "" {
			fmt.Fprintf(w, "%-11s fix: %s\n", "", oneLineText(f.fix))
		}
		if f.status == findingProblem {
			problems++
		}
	}
	if problems > 0 {
		fmt.Fprintf(w, "\n%d %s.\n", problems, run.Plural(problems, "problem", "problems"))
		return 1
	}
	fmt.Fprintln(w, "\nno problem.")
	return 0
}

// oneLineText keeps a finding on its line (GitHub's messages may hold newlines) and
// shows the control characters of names and labels that anyone may choose (a check's
// name, a label, a title) as '?', so that none reaches the terminal as an escape.
func oneLineText(s string) string {
	return run.TerminalSafe(strings.Join(strings.Fields(s), " "))
}
