package sim

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/doctor"
)

// The `doctor` step runs `pipeline-action doctor` as a workflow step (the action with
// `command: doctor`) against the fake, with the state key and the token scopes
// of the action's workflow (the scenario's `permissions:`, those of `run:` when it has
// them), and checks what it reported: `ok` (its exit code was 0) and `contains` (each a
// piece of its output). The fake records every request: a doctor that wrote anything
// fails the step too.

// doctorStep is `doctor: {pr: N, ok: BOOL, contains: [TEXT...]}`.
type doctorStep struct {
	PR       int      `yaml:"pr"`
	OK       *bool    `yaml:"ok"`
	Contains []string `yaml:"contains"`
}

// runDoctor plays a doctor step and returns how many of its expectations failed.
func (s *simulation) runDoctor(ctx context.Context, n int, v *doctorStep) (failed int) {
	label := "doctor"
	args := []string{"doctor"}
	if v.PR > 0 {
		label += fmt.Sprintf(" --pr %d", v.PR)
		args = append(args, "--pr", strconv.Itoa(v.PR))
	}
	fmt.Fprintf(s.out, "── step %d: %s\n", n, label)
	token := s.fake.BotToken()
	s.fake.Grant(token, s.sc.tokenPermissions("run"))
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_TOKEN": token, "GITHUB_REPOSITORY": s.sc.Repo,
		"GITHUB_API_URL": s.fake.URL + "/api/v3", "GITHUB_GRAPHQL_URL": s.fake.URL + "/api/graphql"}
	s.keyEnv(env, nil)
	s.fake.ResetStats()
	var out bytes.Buffer
	code := doctor.Main(ctx, args[1:], &out, &out, func(k string) string { return env[k] })
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		fmt.Fprintf(s.out, "   | %s\n", l) // as a job log
	}
	report := func(ok bool, what, want, found string) {
		s.checked++
		if ok {
			fmt.Fprintf(s.out, "   ✓ %s: %s\n", what, want)
			return
		}
		failed++
		fmt.Fprintf(s.out, "   ✗ %s: want %s, found %s\n", what, want, found)
	}
	var writes []string
	for _, c := range s.fake.Calls() {
		if c.Mutation || c.Kind != "graphql" && c.Method != http.MethodGet {
			writes = append(writes, c.Method+" "+c.Path)
		}
	}
	report(len(writes) == 0, "doctor writes", "nothing", strings.Join(writes, ", "))
	bad := s.fake.Unexpected()
	report(len(bad) == 0, "doctor's requests", "all of them ones GitHub answers", strings.Join(bad, "; "))
	if v.OK != nil {
		report((code == 0) == *v.OK, "doctor ok", fmt.Sprint(*v.OK), fmt.Sprintf("exit code %d", code))
	}
	for _, want := range v.Contains {
		report(strings.Contains(out.String(), want), "doctor's report", strconv.Quote(want), "it is not there")
	}
	return failed
}
