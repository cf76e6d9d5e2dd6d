package sim

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
)

// The `explain` step runs `pipeline-action explain` against the fake, as someone would
// against the live repository with a token that may write (the scopes of the action's
// `run:` workflow), and keeps its output for the expectation `explain: {contains: […]}`.
// Its requests count among the scenario's, so `writes` sees any it made; the step checks
// at once that it made none.

// explainStep is `explain: {pr: N}` or `explain: {issue: N}`.
type explainStep struct {
	PR    int `yaml:"pr"`
	Issue int `yaml:"issue"`
}

// explainExpect is the expectation `explain: {contains: [TEXT...]}`: each is a piece of
// the last explain's output.
type explainExpect struct {
	Contains []string `yaml:"contains"`
}

// runExplain plays an explain step and returns how many of its checks failed.
func (s *simulation) runExplain(ctx context.Context, n int, v *explainStep) (failed int, err error) {
	args := []string{"--pr", strconv.Itoa(v.PR)}
	if v.Issue > 0 {
		args = []string{"--issue", strconv.Itoa(v.Issue)}
	}
	label := "explain " + strings.Join(args, " ")
	fmt.Fprintf(s.out, "── step %d: %s\n", n, label)
	token := s.fake.BotToken()
	s.fake.Grant(token, s.sc.tokenPermissions("run"))
	env := map[string]string{"GITHUB_TOKEN": token, "GITHUB_REPOSITORY": s.sc.Repo,
		"GITHUB_API_URL": s.fake.URL + "/api/v3", "GITHUB_GRAPHQL_URL": s.fake.URL + "/api/graphql",
		"INPUT_TIMEOUT": s.sc.Timeout.String(), "INPUT_REQUEST_TIMEOUT": s.sc.RequestTimeout.String()}
	s.keyEnv(env, nil)
	s.fake.ResetStats()
	var out, log bytes.Buffer
	r := &run.Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: s.clock.now, Sleep: s.clock.sleep, Webhooks: s.http.env()}
	code := r.ExplainMain(ctx, args, &out, &log)
	calls := s.fake.Calls()
	s.stats = append(s.stats, stepStats{step: n, label: label, calls: s.fake.Stats(), writes: contentWrites(calls), inARow: ghfake.InARow(calls)})
	s.explained = out.String()
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		fmt.Fprintf(s.out, "   | %s\n", l)
	}
	if s.verbose || code != 0 {
		for _, l := range strings.Split(strings.TrimRight(log.String(), "\n"), "\n") {
			fmt.Fprintf(s.out, "   | %s\n", l)
		}
	}
	if bad := s.fake.Unexpected(); len(bad) > 0 {
		return 0, fmt.Errorf("the fake GitHub saw requests GitHub would refuse:\n  %s", strings.Join(bad, "\n  "))
	}
	report := s.reporter(&failed)
	w := s.stats[len(s.stats)-1].writes
	report(w == 0, "explain's writes", "none", fmt.Sprint(w))
	report(code == 0, "explain's exit code", "0", fmt.Sprint(code))
	return failed, nil
}

// reporter is the report function of checks that count their failures in *failed.
func (s *simulation) reporter(failed *int) func(ok bool, what, want, found string) {
	return func(ok bool, what, want, found string) {
		s.checked++
		if ok {
			fmt.Fprintf(s.out, "   ✓ %s: %s\n", what, want)
			return
		}
		*failed++
		fmt.Fprintf(s.out, "   ✗ %s: want %s, found %s\n", what, want, found)
	}
}

// checkExplain checks `explain` against the last explain's output, and `writes` against
// the content-creating requests of every step so far.
func (s *simulation) checkExplain(report func(bool, string, string, string), e *expectation) {
	if e.Explain != nil {
		for _, want := range e.Explain.Contains {
			found := "it is not there"
			if s.explained == "" {
				found = "no explain step ran before"
			}
			report(strings.Contains(s.explained, want), "explain's output", strconv.Quote(want), found)
		}
	}
	if e.Writes != nil {
		_, writes := s.callTotals()
		report(writes == *e.Writes, "write requests so far (REST writes and GraphQL mutations)", fmt.Sprint(*e.Writes), fmt.Sprint(writes))
	}
}
