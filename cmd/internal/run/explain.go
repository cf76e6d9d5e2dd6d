package run

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// ExplainUsage is the usage of the explain command.
const ExplainUsage = `usage: pipeline-action explain --repo OWNER/NAME (--pr N | --issue N) [--config PATH] [--log]

Reads the live pull request (or issue) and prints what every pipeline would do now,
writing nothing: the status comment it would write (each run's status, each stage's
state, why a stage waits and who can move it), the effects it would perform, the
pipelines that have no run there and what starts them, and the engine's reasons. It is
the run command's own path — the same read, the same evaluation — with a client that
refuses every write before it is sent (REST POST, PATCH, PUT, DELETE and GraphQL
mutations), whatever the token may do.

The evaluation is the one an event that names no trigger makes (the event "explain"): open
runs move on what they read now, deadlines that passed are acted on, and a pipeline
whose trigger names a state (opened, a label) starts when it holds and was not seen;
one that starts on a happening (a push, a review, a comment) waits for it. Effects
are taken as done, in order, so the stages after them show as they would.

The token comes from GITHUB_TOKEN (or INPUT_TOKEN); a read-only token is enough.
GITHUB_GRAPHQL_URL and GITHUB_API_URL name another GitHub than github.com; with a
state key, give it as INPUT_STATE_KEY to read signed states.

flags:
  --repo OWNER/NAME   the repository (default GITHUB_REPOSITORY)
  --pr N              a pull request
  --issue N           an issue (the subject of scope: issue pipelines)
  --config PATH       the config's path on the default branch (default
                      .github/pipelines.yaml, or INPUT_CONFIG)
  --log               print the job log the evaluation wrote, on stderr

exit codes: 0 explained, 1 it could not be read or evaluated (the job log follows on
stderr), 2 bad usage or no token
`

// explainEvent is the event explain evaluates a subject on: it names no trigger, so the
// evaluation is the one every event makes besides its own (a late start says "on explain").
const explainEvent = "explain"

// ExplainMain is the explain command run by r: r.Out takes the job log.
func (r *Runner) ExplainMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := NewFlagSet("explain", stderr)
	repo := fs.String("repo", r.Getenv("GITHUB_REPOSITORY"), "the repository, OWNER/NAME")
	pr := fs.Int("pr", 0, "a pull request")
	issue := fs.Int("issue", 0, "an issue")
	config := fs.String("config", "", "the config's path")
	showLog := fs.Bool("log", false, "print the job log on stderr")
	rest, code, ok := ParseFlags(fs, ExplainUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	bad := ""
	switch {
	case len(rest) > 0:
		bad = fmt.Sprintf("takes no arguments, got %q", rest)
	case *repo == "":
		bad = "no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY"
	case (*pr > 0) == (*issue > 0) || *pr < 0 || *issue < 0:
		bad = "give one of --pr N, --issue N"
	case r.Getenv("GITHUB_TOKEN") == "" && r.Getenv("INPUT_TOKEN") == "":
		bad = "no token: set GITHUB_TOKEN (a token that may read the repository)"
	}
	if bad != "" {
		fmt.Fprintf(stderr, "pipeline-action explain: %s\n\n%s", bad, ExplainUsage)
		return 2
	}
	r.Getenv = explainEnv(r.Getenv, *config)
	var log bytes.Buffer
	r.Out = &log
	number := max(*pr, *issue)
	code = r.explain(ctx, *repo, number, *issue > 0)
	if code == 0 {
		var b strings.Builder
		r.printExplain(&b, *repo, number)
		io.WriteString(stdout, TerminalSafe(b.String()))
	}
	if *showLog || code != 0 {
		stderr.Write(log.Bytes())
	}
	return code
}

// explainEnv is getenv with the token of GITHUB_TOKEN as the action's input, and config
// as its config input when given.
func explainEnv(getenv func(string) string, config string) func(string) string {
	return func(k string) string {
		switch {
		case k == "INPUT_CONFIG" && config != "":
			return config
		case k == "INPUT_TOKEN" && getenv(k) == "":
			return getenv("GITHUB_TOKEN")
		case k == "INPUT_DRY_RUN":
			return "true" // explain is dry whatever the environment says
		}
		return getenv(k)
	}
}

// explain evaluates subject number of repo dry, through the run path.
func (r *Runner) explain(ctx context.Context, repo string, number int, issue bool) int {
	r.dry = &dryRun{}
	prepare := func() (routed, int) {
		return routed{Handled: true, Event: explainEvent, Repo: repo, Numbers: []int{number}, Issue: issue}, proceed
	}
	return r.invoke(ctx, prepare, func(ctx context.Context, client *ghapi.Client, ev routed) int {
		var err error
		if ev.DefaultBranch, err = client.DefaultBranch(ctx); err != nil {
			r.act.Errorf("%v", err)
			return 1
		}
		if _, err := r.subject(ctx, client, ev, number, "explain"); err != nil {
			r.act.Errorf("%s#%d: %v", repo, number, err)
			return 1
		}
		return 0
	})
}

// printExplain prints what the dry evaluation recorded, subject by subject.
func (r *Runner) printExplain(w io.Writer, repo string, number int) {
	fmt.Fprintf(w, "pipeline-action explain %s#%d: what the pipelines would do now (evaluated as on an event that names no trigger)\n", repo, number)
	if len(r.dry.subjects) == 0 {
		fmt.Fprintf(w, "\nNothing to explain: no config, or #%d is neither an open pull request nor an issue (run with --log to see why).\n", number)
	}
	for _, s := range r.dry.subjects {
		printDrySubject(w, repo, s)
	}
	fmt.Fprintln(w, "\nWrites: none (explain never writes)")
}

func printDrySubject(w io.Writer, repo string, s *drySubject) {
	fmt.Fprintf(w, "\n== %s#%d ==\n", repo, s.Number)
	if s.Saves {
		fmt.Fprintf(w, "\nStatus comment it would write:\n\n%s\n", indent(s.Body))
	} else {
		fmt.Fprintln(w, "\nNo pipeline concerns it: it would save nothing and write no status comment.")
	}
	fmt.Fprintln(w, "\nEffects it would perform (in order, each taken as done):")
	if len(s.Effects) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, e := range s.Effects {
		fmt.Fprintf(w, "  - %s\n", EffectText(e))
	}
	if idle := idlePipelines(s); len(idle) > 0 {
		fmt.Fprintln(w, "\nPipelines with no run here:")
		for _, l := range idle {
			fmt.Fprintf(w, "  - %s\n", l)
		}
	}
	if len(s.Log) > 0 {
		fmt.Fprintln(w, "\nWhy (the engine's log):")
		for _, l := range s.Log {
			fmt.Fprintf(w, "  - %s\n", OneLine(l))
		}
	}
}

// idlePipelines says, for each triggered pipeline of the config with no run on the
// subject, what starts it.
func idlePipelines(s *drySubject) []string {
	if s.Config == nil {
		return nil
	}
	ran := map[string]bool{}
	if s.State != nil {
		for _, run := range s.State.Runs {
			ran[run.Pipeline] = true
		}
	}
	var out []string
	for _, p := range s.Config.Pipelines {
		if p.Trigger.Event == "" || ran[p.Name] {
			continue
		}
		line := fmt.Sprintf("%s: starts on %s", p.Name, p.Trigger.Event)
		enabled := !p.Dormant
		if s.State != nil {
			if on, ok := s.State.Enabled[p.Name]; ok {
				enabled = on
			}
		}
		if !enabled {
			line += ", once enabled here (it is not)"
		}
		out = append(out, line)
	}
	return out
}

// TerminalSafe shows the control characters of s but newlines and tabs (the escape
// sequences a title or a label could carry to a terminal) as '?'.
func TerminalSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0) {
			return '?'
		}
		return r
	}, s)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}
