package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
)

const ReportUsage = `usage: pipeline-action report --run ID --stage ID --attempt N --nonce N --verdict V [flags]

Reports an agent's verdict back to its run: what an agent's workflow calls when it is
done (inside GitHub Actions, the action with command: report and the inputs run, stage,
attempt, nonce, verdict and outputs). The run, stage, attempt and nonce are the inputs
the dispatch gave the agent. The state of the pull request is read, the report applied and the
state written back with compare-and-swap, as run does.

flags:
  --run ID        the run (the dispatch's "run" input: <pipeline>/<pr>/<n>)
  --stage ID      the agent stage (the "stage" input)
  --attempt N     the attempt (the "attempt" input)
  --nonce N       the dispatch's nonce (the "nonce" input): a report counts only for the
                  dispatch that gave it
  --verdict V     complete, followup, failed, approve, reject or revise
  --outputs FILE  a JSON object: the stage's outputs (stages.<id>.outputs); - reads stdin
  --pr N          the pull request: of a pull request's run, its number (the number in the
                  run id, the default); of an issue's run, the pull request the agent opened,
                  which the run then follows (as outputs {"pr": N})
  --repo O/N      the repository (default GITHUB_REPOSITORY)

The state key, when the action has one, comes from INPUT_STATE_KEY (the state_key input,
and INPUT_STATE_KEY_PREVIOUS during a rotation), never from a flag: the report signs the
state it writes with it. It must be the secret the pipelines workflow uses.

A report for a run that has moved on (another stage, a later attempt, a finished run),
or whose nonce is not the one of the stage's live attempt (a report of an earlier
dispatch, re-run), is refused and logged, and counts for nothing; the command still
exits 0.

Outputs over 1 KiB of JSON are kept in their own file on the state branch. A report whose
outputs would take the state past its budget is refused with exit 1 and says why; nothing
is recorded, and the stage still waits for a report.

exit codes: 0 reported (or refused as stale), 1 the state could not be read or written, or
the report would break the state's budget, 2 bad usage
`

// maxOutputsBytes bounds the outputs a report may carry: they are kept in the state,
// which a comment of at most 65536 characters mirrors.
const maxOutputsBytes = engine.MaxOutputs

// reportRun and reportStage are what run and stage ids look like (docs/language.md, names).
var (
	reportRun   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*/[1-9][0-9]*/[1-9][0-9]*$`)
	reportStage = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	reportNonce = regexp.MustCompile(`^[1-9][0-9]*-[0-9a-f]{16}(\.[0-9a-f]{64})?$`)
)

// ReportCommand is the report command run by r.
func (r *Runner) ReportCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	getenv := r.Getenv
	fs := NewFlagSet("report", stderr)
	input := func(name string) string { return strings.TrimSpace(getenv("INPUT_" + strings.ToUpper(name))) }
	runID := fs.String("run", input("run"), "")
	stage := fs.String("stage", input("stage"), "")
	attempt := fs.String("attempt", input("attempt"), "")
	nonce := fs.String("nonce", input("nonce"), "")
	verdict := fs.String("verdict", input("verdict"), "")
	outputsFile := fs.String("outputs", "", "")
	pr := fs.String("pr", input("pr"), "")
	repo := fs.String("repo", getenv("GITHUB_REPOSITORY"), "")
	rest, code, ok := ParseFlags(fs, ReportUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "pipeline-action report: "+format+"\n\n%s", append(a, ReportUsage)...)
		return 2
	}
	if len(rest) > 0 {
		return bad("takes no arguments, got %q", rest)
	}
	rep, why := reportOf(*runID, *stage, *attempt, *verdict, *nonce)
	if why != "" {
		return bad("%s", why)
	}
	number := runSubject(rep.Run)
	associated := 0 // --pr of an issue's run
	if *pr != "" {
		p, err := strconv.Atoi(strings.TrimPrefix(*pr, "#"))
		if err != nil || p < 1 {
			return bad("--pr %q is not a pull request number", *pr)
		}
		if number != 0 && p != number {
			associated = p // the run's subject is an issue, or the engine refuses it as such
		} else {
			number = p
		}
	}
	if number == 0 {
		return bad("run %q names no pull request (<pipeline>/<pr>/<n>); give --pr", rep.Run)
	}
	var raw []byte
	var err error
	switch {
	case *outputsFile == "-":
		raw, err = io.ReadAll(io.LimitReader(stdin, maxOutputsBytes+1))
	case *outputsFile != "":
		raw, err = os.ReadFile(*outputsFile)
	default:
		raw = []byte(getenv("INPUT_OUTPUTS"))
	}
	if err != nil {
		return bad("reading the outputs: %v", err)
	}
	if rep.Outputs, err = decodeOutputs(raw); err != nil {
		return outputsMistake(stderr, *outputsFile, raw, err, bad)
	}
	if associated != 0 {
		if n := reportPR(&rep); n != 0 && n != associated {
			return bad("--pr %d and outputs.pr %d name different pull requests", associated, n)
		}
		if rep.Outputs == nil {
			rep.Outputs = map[string]any{}
		}
		rep.Outputs["pr"] = associated
	}
	if *repo == "" {
		return bad("no repository: give --repo OWNER/NAME or set GITHUB_REPOSITORY")
	}
	return r.runReport(ctx, *repo, number, rep)
}

// reportOf is the report the flags give, or what is wrong with them.
func reportOf(runID, stage, attempt, verdict, nonce string) (engine.Report, string) {
	rep := engine.Report{Run: runID, Stage: stage, Verdict: strings.ToLower(verdict), Nonce: nonce}
	switch {
	case rep.Run == "" || rep.Stage == "" || attempt == "" || rep.Verdict == "":
		return rep, "--run, --stage, --attempt and --verdict are required"
	case rep.Nonce == "":
		return rep, "--nonce is required: pass the dispatch's nonce input (nonce: ${{ inputs.nonce }}), as the run, stage and attempt"
	case !reportNonce.MatchString(rep.Nonce):
		return rep, fmt.Sprintf("--nonce %q is not a dispatch's nonce (<attempt>-<16 hex digits>, signed with the state key: .<64 hex digits>)", rep.Nonce)
	case !reportRun.MatchString(rep.Run):
		return rep, fmt.Sprintf("--run %q is not a run id (<pipeline>/<pr>/<n>, as the dispatch's run input gives it)", rep.Run)
	case !reportStage.MatchString(rep.Stage):
		return rep, fmt.Sprintf("--stage %q is not a stage id", rep.Stage)
	case !slices.Contains(engine.Verdicts, rep.Verdict):
		return rep, fmt.Sprintf("unknown verdict %q: one of %s", rep.Verdict, strings.Join(engine.Verdicts, ", "))
	}
	n, err := strconv.Atoi(attempt)
	if err != nil || n < 1 {
		return rep, fmt.Sprintf("--attempt %q is not a positive number", attempt)
	}
	rep.Attempt = n
	return rep, ""
}

// runSubject is the pull request number of a run id (<pipeline>/<number>/<n>), or 0.
func runSubject(id string) int {
	parts := strings.Split(id, "/")
	if len(parts) != 3 {
		return 0
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// decodeOutputs reads a report's outputs: a JSON object, at most maxOutputsBytes; empty
// text is no outputs.
func decodeOutputs(raw []byte) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	if len(raw) > maxOutputsBytes {
		return nil, fmt.Errorf("the outputs are larger than %d bytes; keep them small (they are kept in the state), and link to anything larger", maxOutputsBytes)
	}
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&out); err != nil || out == nil {
		return nil, fmt.Errorf("the outputs must be a JSON object such as {\"feedback\": \"…\"}")
	}
	if dec.More() {
		return nil, errors.New("the outputs must be one JSON object")
	}
	return out, nil
}

// runReport applies rep to the state of pull request number of repo: the read-evaluate-
// write rounds of run, with the report as the input.
func (r *Runner) runReport(ctx context.Context, repo string, number int, rep engine.Report) int {
	prepare := func() (routed, int) {
		return r.reportEvent(repo, number, &rep), proceed
	}
	return r.invoke(ctx, prepare, func(ctx context.Context, client *ghapi.Client, ev routed) int {
		if ev.DefaultBranch == "" {
			var err error
			if ev.DefaultBranch, err = client.DefaultBranch(ctx); err != nil {
				r.act.Errorf("%v", err)
				return 1
			}
		}
		r.act.Infof("pipeline-action: report %s for run %s, stage %s, attempt %d", rep.Verdict, rep.Run, rep.Stage, rep.Attempt)
		key := "report-" + rep.Run + "/" + rep.Stage + "/" + strconv.Itoa(rep.Attempt) + "/" + rep.Verdict
		if id := r.Getenv("GITHUB_RUN_ID"); id != "" {
			key = "run-" + id
		}
		res, err := r.subject(ctx, client, ev, number, key)
		if err != nil {
			r.act.Errorf("%s#%d: %v", repo, number, err)
			return 1
		}
		if res != nil {
			r.report(client, []subjectResult{*res})
		}
		return 0
	})
}

// reportEvent is the event a report is: the agent's workflow runs on workflow_dispatch or
// repository_dispatch, whose payload names the repository and its default branch.
func (r *Runner) reportEvent(repo string, number int, rep *engine.Report) routed {
	ev := routed{Handled: true, Event: "report", Repo: repo, Numbers: []int{number}, Report: rep, Actor: r.Getenv("GITHUB_ACTOR")}
	path := r.Getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return ev
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return ev
	}
	var p payload
	if json.Unmarshal(raw, &p) == nil && p.Repository != nil && strings.EqualFold(p.Repository.FullName, repo) {
		ev.DefaultBranch = p.Repository.DefaultBranch
		if p.Sender != nil && ev.Actor == "" {
			ev.Actor = p.Sender.Login
		}
	}
	return ev
}
