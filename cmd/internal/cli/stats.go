package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/stats"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

const statsUsage = `usage: pipeline-action stats [--repo OWNER/NAME] [--since 30d] [--until TIME] [--format text|json|markdown]
                            [--branch BRANCH] [--config PATH]

Reports, per pipeline, what its runs did in the window that ends at --until (default
now) and began --since before: runs started and finished (completed, failed, cancelled)
and still open; for each stage the visits that ended in the window and the time one took
(median and 90th percentile, nearest rank: the smallest time at least that share of
visits took at most); the time runs waited, by whom — people (human stages, gates on
reviews or labels, an escalated run), CI (gates on checks, deployments, commands or an
up-to-date branch), agents (agent stages), other (actions, delays, webhooks,
sub-pipelines, stages the config no longer has); loop iterations (of rules with
max_iterations), agent errors and the retries they started, and escalations.

It reads the audit trail of every subject on the state branch (the file, audit parts
and archived runs audit reads) and the config on the default branch (for each stage's
type), in 1 + ⌈subjects / 25⌉ GraphQL queries. --format markdown adds a Mermaid pie of
the waiting and a Mermaid bar chart of the time per stage (for a job summary or an
issue); --format json is one object, durations in seconds. Loops, agent errors and
retries are counted from the transitions of this version on (their rows say their kind).

The token comes from GITHUB_TOKEN (or the action's INPUT_TOKEN); GITHUB_GRAPHQL_URL
names another GitHub than github.com.

flags:
  --repo OWNER/NAME   the repository (default GITHUB_REPOSITORY)
  --since DURATION    how far back the window goes: 30d, 2w, 12h, 90m (default 30d)
  --until TIME        the window's end: 2026-01-31 (its midnight, UTC) or an RFC 3339
                      time (default now)
  --format FORMAT     text (default), json or markdown
  --branch BRANCH     the state branch, as settings.state_branch names it
                      (default pipeline-action/state)
  --config PATH       the config file on the default branch (default .github/pipelines.yaml)

exit codes: 0 printed, 1 the trails could not be read (or part of them), 2 bad usage or
no token
`

// statsMain prints the statistics of a repository's runs.
func statsMain(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := run.NewFlagSet("stats", stderr)
	repo := fs.String("repo", getenv("GITHUB_REPOSITORY"), "the repository, OWNER/NAME")
	branch := fs.String("branch", lang.DefaultStateBranch, "the state branch")
	since := fs.String("since", "30d", "how far back the window goes")
	format := fs.String("format", "text", "text, json or markdown")
	config := fs.String("config", run.DefaultConfigPath, "the config file")
	until := fs.String("until", "", "the window's end")
	rest, code, ok := run.ParseFlags(fs, statsUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	window, err := stats.ParseSince(*since)
	end, endErr := windowEnd(*until)
	bad := ""
	switch {
	case len(rest) > 0:
		bad = fmt.Sprintf("takes no arguments, got %q", rest)
	case err != nil:
		bad = err.Error()
	case endErr != nil:
		bad = endErr.Error()
	case *format != "text" && *format != "json" && *format != "markdown":
		bad = fmt.Sprintf("--format is text, json or markdown, not %q", *format)
	case *repo == "":
		bad = "no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY"
	}
	if bad != "" {
		fmt.Fprintf(stderr, "pipeline-action stats: %s\n\n%s", bad, statsUsage)
		return 2
	}
	client, code := commandClient("stats", getenv, *repo, stderr)
	if client == nil {
		return code
	}
	read, err := client.ReadTrails(ctx, *branch, *config)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action stats: %v\n", err)
		return 1
	}
	if !read.Exists {
		fmt.Fprintf(stderr, "%s has no state branch %s: no run has been saved there yet.\n", *repo, *branch)
		return 0
	}
	lookup := stats.FromConfig(nil)
	if read.Config == nil {
		fmt.Fprintf(stderr, "pipeline-action stats: no config at %s on the default branch: every stage waits for \"other\"\n", run.ConfigWhere(*config))
	} else if cfg, err := run.LoadConfig(read.Config); err != nil {
		fmt.Fprintf(stderr, "pipeline-action stats: the config on the default branch does not load (%v): every stage waits for \"other\"\n", err)
	} else {
		lookup = stats.FromConfig(cfg)
	}
	trails, problems := subjectTrails(*repo, read)
	rep := stats.Aggregate(trails, lookup, end.Add(-window), end)
	if err := writeStats(stdout, rep, *format, *repo, read); err != nil {
		fmt.Fprintf(stderr, "pipeline-action stats: %v\n", err)
		return 1
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "pipeline-action stats: left out: %s\n", p)
	}
	if len(problems) > 0 {
		return 1
	}
	return 0
}

// windowEnd is the time --until gives: now when empty.
func windowEnd(until string) (time.Time, error) {
	if until == "" {
		return time.Now(), nil
	}
	if t, err := time.Parse(time.RFC3339, until); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, until); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--until is a date (2026-01-31) or an RFC 3339 time (2026-01-31T12:00:00Z), not %q", until)
}

// subjectTrails are the trails of the subjects read, and the files that could not be read.
func subjectTrails(repo string, read ghapi.Trails) ([][]state.AuditEntry, []string) {
	var trails [][]state.AuditEntry
	var problems []string
	for _, file := range slices.Sorted(maps.Keys(read.Subjects)) {
		number := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(file, "pr-"), "issue-"), ".json")
		rows, ps := state.Trail(repo+"#"+number, read.Subjects[file], nil)
		entries := make([]state.AuditEntry, len(rows))
		for i, r := range rows {
			entries[i] = r.AuditEntry
		}
		trails = append(trails, entries)
		problems = append(problems, ps...)
	}
	return trails, problems
}

func writeStats(w io.Writer, rep stats.Report, format, repo string, read ghapi.Trails) error {
	switch format {
	case "json":
		return stats.WriteJSON(w, rep)
	case "markdown":
		if err := stats.WriteMarkdown(w, rep, repo); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "\nFrom the state branch at `%.7s`, in %d GraphQL %s.\n", read.Head, read.Queries, run.Plural(read.Queries, "query", "queries"))
		return err
	}
	fmt.Fprintf(w, "Pipeline statistics of %s, ", repo)
	if err := stats.WriteText(w, rep); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nFrom the state branch at %.7s, in %d GraphQL %s.\n", read.Head, read.Queries, run.Plural(read.Queries, "query", "queries"))
	return err
}
