package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/run"
)

// deliver feeds one event through the real run path, over HTTP, to the fake.
func (s *simulation) deliver(ctx context.Context, d delivery) error {
	return s.report(s.invoke(ctx, d, s.fake.BotToken()))
}

// invocation is what one run of the real run path did.
type invocation struct {
	log  string
	code int
	err  error // the run could not be set up
}

// report prints an invocation's log when asked or when it failed, and turns a run that
// could not start into an error.
func (s *simulation) report(res invocation) error {
	if res.err != nil {
		return res.err
	}
	s.noteJobErrors(res)
	if s.verbose || res.code != 0 {
		for _, l := range strings.Split(strings.TrimRight(res.log, "\n"), "\n") {
			fmt.Fprintf(s.out, "   | %s\n", l)
		}
	}
	if res.code == 2 {
		return errors.New("the run could not start; see its log above")
	}
	return nil
}

// invoke runs one delivery through the real run path, authenticated by token; it is safe
// to call from several goroutines at once.
func (s *simulation) invoke(ctx context.Context, d delivery, token string) invocation {
	return s.invokeWithin(ctx, d, token, s.sc.RequestTimeout)
}

// invokeWithin is invoke with the run's request_timeout input set to requestTimeout.
func (s *simulation) invokeWithin(ctx context.Context, d delivery, token string, requestTimeout time.Duration) invocation {
	path := filepath.Join(s.tmp, fmt.Sprintf("event-%d.json", d.runID))
	if err := os.WriteFile(path, d.event.Payload, 0o600); err != nil {
		return invocation{err: err}
	}
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   d.event.Name,
		"GITHUB_EVENT_PATH":   path,
		"GITHUB_REPOSITORY":   s.sc.Repo,
		"GITHUB_API_URL":      s.fake.URL + "/api/v3",
		"GITHUB_GRAPHQL_URL":  s.fake.URL + "/api/graphql",
		"GITHUB_RUN_ID":       strconv.Itoa(d.runID),
		"GITHUB_OUTPUT":       filepath.Join(s.tmp, fmt.Sprintf("output-%d", d.runID)),
		"GITHUB_STEP_SUMMARY": filepath.Join(s.tmp, fmt.Sprintf("summary-%d", d.runID)),
		"INPUT_TOKEN":         token,
		"INPUT_TIMEOUT":       s.sc.Timeout.String(),
		// The scenario's clock, not the machine's, bounds rate-limit waits; real time
		// bounds only a request the fake holds (a timeout fault).
		"INPUT_REQUEST_TIMEOUT": requestTimeout.String(),
	}
	if s.sc.SweepBudget != 0 {
		env["INPUT_SWEEP_BUDGET"] = strconv.Itoa(s.sc.SweepBudget)
	}
	if s.sc.DryRun {
		env["INPUT_DRY_RUN"] = "true"
	}
	if s.sc.SweepWrites != 0 {
		env["INPUT_SWEEP_WRITES"] = strconv.Itoa(s.sc.SweepWrites)
	}
	var log bytes.Buffer
	for k, v := range s.sc.Secrets {
		env[run.SecretEnvPrefix+strings.ToUpper(k)] = v
	}
	r := &run.Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: s.clock.now, Sleep: s.clock.sleep, Webhooks: s.http.env(), AppToken: s.appToken()}
	with, agent := s.with[string(d.event.Payload)]
	s.fake.Grant(token, s.sc.tokenPermissions(invocationKind(d.event.Name, agent)))
	for k, v := range with {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	s.keyEnv(env, with)
	var code int
	switch {
	case agent:
		code = r.ReportCommand(ctx, nil, strings.NewReader(""), &log, &log)
	case d.event.Name == "schedule":
		code = r.Sweep(ctx) // the sweep workflow (`command: sweep`)
	default:
		code = r.Run(ctx)
	}
	return invocation{log: log.String(), code: code}
}
