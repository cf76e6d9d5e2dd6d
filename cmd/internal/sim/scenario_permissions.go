package sim

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// The scenario's `permissions:` are the scopes of the tokens the simulator gives the
// action's invocations, as a workflow's `permissions:` block sets them: every scope it
// leaves out is none. A flat map (scope → read, write or none) is every invocation's;
// under `run:`, `report:` or `sweep:` a map is that invocation's alone (an agent's report
// runs in the agent's workflow, the sweep in its own). Without the key every scope is
// write.

// workflowScopes are the scopes a workflow's permissions: block names. metadata is always
// read; members is an organization permission, which only an App's token can hold: a
// scenario names it to play the action with such a token.
var workflowScopes = []string{"actions", "attestations", "checks", "contents", "deployments", "discussions",
	"id-token", "issues", "members", "metadata", "models", "packages", "pages", "pull-requests",
	"repository-projects", "security-events", "statuses"}

// invocationKinds are the keys of `permissions:` that hold one invocation's scopes.
var invocationKinds = []string{"run", "report", "sweep"}

// checkPermissions refuses a `permissions:` that names an unknown scope or level; at is
// the key, for the position of the message.
func (sc *scenario) checkPermissions(at *yaml.Node) error {
	if sc.Permissions == nil {
		return nil
	}
	for k, v := range sc.Permissions {
		if slices.Contains(invocationKinds, k) {
			m, ok := v.(map[string]any)
			if !ok {
				return errorAt(sc.path, at, "permissions.%s must be a map of scope → read, write or none", k)
			}
			for scope, lvl := range m {
				if err := checkScope(scope, lvl); err != nil {
					return errorAt(sc.path, at, "permissions.%s: %v", k, err)
				}
			}
			continue
		}
		if err := checkScope(k, v); err != nil {
			return errorAt(sc.path, at, "permissions: %v", err)
		}
	}
	return nil
}

func checkScope(scope string, lvl any) error {
	if !slices.Contains(workflowScopes, scope) {
		return fmt.Errorf("unknown scope %q (one of %s, or run, report, sweep holding a map)", scope, strings.Join(workflowScopes, ", "))
	}
	if s, ok := lvl.(string); !ok || (s != "read" && s != "write" && s != "none") {
		return fmt.Errorf("%s must be read, write or none, not %v", scope, lvl)
	}
	return nil
}

// invocationKind is "report" for an agent's report, "sweep" for a schedule, else "run".
func invocationKind(event string, agent bool) string {
	switch {
	case agent:
		return "report"
	case event == "schedule":
		return "sweep"
	}
	return "run"
}

// tokenPermissions are the scopes of an invocation's token, as the fake names them
// (pull_requests); nil when the scenario sets none (every scope write).
func (sc *scenario) tokenPermissions(kind string) ghfake.Permissions {
	if sc.Permissions == nil {
		return nil
	}
	flat := map[string]any{}
	for k, v := range sc.Permissions {
		if !slices.Contains(invocationKinds, k) {
			flat[k] = v
		}
	}
	if own, ok := sc.Permissions[kind].(map[string]any); ok {
		flat = own
	}
	out := ghfake.Permissions{}
	for scope, lvl := range flat {
		if s, _ := lvl.(string); s == "read" || s == "write" {
			out[strings.ReplaceAll(scope, "-", "_")] = s
		}
	}
	return out
}

// noteJobErrors keeps the ::error:: lines of a job that failed: a token without a scope
// fails the job, and a scenario checks that it says which (expect `job_errors:`).
// It keeps every job's ::warning:: lines too (expect `job_warnings:`).
func (s *simulation) noteJobErrors(res invocation) {
	for _, l := range strings.Split(res.log, "\n") {
		if w, ok := strings.CutPrefix(l, "::warning::"); ok {
			s.jobWarnings = append(s.jobWarnings, w)
		}
		if e, ok := strings.CutPrefix(l, "::error::"); ok && res.code != 0 {
			s.jobErrors = append(s.jobErrors, e)
		}
	}
}

// checkJobLines checks `job_errors:` (the error lines of the jobs that failed so far) or
// `job_warnings:` (the warning lines of every job so far): each string is in one of lines;
// an empty list wants none.
func checkJobLines(report func(bool, string, string, string), what string, lines []string, want *[]string) {
	if want == nil {
		return
	}
	found := fmt.Sprintf("%d: %q", len(lines), lines)
	if len(*want) == 0 {
		report(len(lines) == 0, what, "none", found)
	}
	for _, w := range *want {
		ok := slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, w) })
		report(ok, what+" contain", fmt.Sprintf("%q", w), found)
	}
}
