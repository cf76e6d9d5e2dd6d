package run

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

func latest(runs []*engine.Run) *engine.Run {
	var out *engine.Run
	for _, r := range runs {
		if out == nil || !r.StartedAt.Before(out.StartedAt) {
			out = r
		}
	}
	return out
}

// report sets the step outputs from the first subject's results and writes the job
// summary.
func (r *Runner) report(client *ghapi.Client, results []subjectResult) {
	if len(results) == 0 {
		return
	}
	r.setOutput("status", results[0].Status)
	r.setOutput("stage", results[0].Stage)
	if r.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return
	}
	calls, writes := callsOf(client)
	text := jobSummary(results, calls, writes)
	if r.dry != nil {
		for _, res := range results {
			text += "\n" + r.dry.summary(res.Number)
		}
	}
	if err := appendEnvFile(r.Getenv("GITHUB_STEP_SUMMARY"), text+"\n"); err != nil {
		r.act.Warningf("pipeline-action: the job summary could not be written (%v)", err)
	}
}

// setOutput sets a step output through the GITHUB_OUTPUT file. Without that file (an
// old runner, a local run) or when it cannot be written, the output goes to the job
// log instead: the work is done by then, and losing an output must not fail the job.
func (r *Runner) setOutput(name, value string) {
	path := r.Getenv("GITHUB_OUTPUT")
	if path == "" {
		r.act.Infof("pipeline-action: output %s=%s (GITHUB_OUTPUT is not set)", name, value)
		return
	}
	delim, err := outputDelimiter(value)
	if err == nil {
		err = appendEnvFile(path, name+"<<"+delim+"\n"+value+"\n"+delim+"\n")
	}
	if err != nil {
		r.act.Warningf("pipeline-action: output %s=%s could not be written to GITHUB_OUTPUT (%v)", name, value, err)
	}
}

// outputDelimiter returns a heredoc delimiter that does not occur in value, random as
// the Actions toolkit's is, so no value can end its block early and set other outputs.
func outputDelimiter(value string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	d := "ghadelimiter_" + hex.EncodeToString(b[:])
	if strings.Contains(value, d) {
		return "", errors.New("the value contains the delimiter")
	}
	return d, nil
}

// appendEnvFile appends text to one of the runner's environment files.
func appendEnvFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// annotate turns config errors into annotations on their lines.
func (r *Runner) annotate(err error) {
	var list lang.ErrorList
	if !errors.As(err, &list) {
		r.act.Errorf("%v", err)
		return
	}
	for _, e := range list {
		r.act.WithFieldsMap(map[string]string{
			"file": e.Pos.File, "line": strconv.Itoa(e.Pos.Line), "col": strconv.Itoa(e.Pos.Col),
		}).Errorf("%s [%s]", e.Message, e.Kind)
	}
}

func (r *Runner) logLines(lines []string) {
	if r.dry != nil {
		cur := r.dry.current()
		cur.Log = append(cur.Log, lines...)
	}
	for _, l := range lines {
		r.act.Infof("pipeline-action: %s", l)
	}
}

func FormatCalls(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
