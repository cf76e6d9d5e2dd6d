package sim

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// workflowPermissions reads the permissions: block of a workflow (its text), as the
// scenario's permissions: takes it.
func workflowPermissions(t *testing.T, what string, text []byte) map[string]any {
	t.Helper()
	var wf struct {
		Permissions map[string]string `yaml:"permissions"`
	}
	require.NoError(t, yaml.Unmarshal(text, &wf), what)
	require.NotEmpty(t, wf.Permissions, "%s has no permissions: block", what)
	out := map[string]any{}
	for k, v := range wf.Permissions {
		require.NoError(t, checkScope(k, v), what)
		out[k] = v
	}
	return out
}

func workflowFile(t *testing.T, path string) map[string]any {
	t.Helper()
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	return workflowPermissions(t, path, text)
}

// docAgentPermissions is the permissions: of the agent workflow docs/agents.md shows.
func docAgentPermissions(t *testing.T) map[string]any {
	t.Helper()
	readme, err := os.ReadFile("../../../docs/agents.md")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(readme, -1) {
		if bytes.Contains(m[1], []byte("command: report")) {
			return workflowPermissions(t, "the agent workflow of docs/agents.md", m[1])
		}
	}
	t.Fatal("docs/agents.md shows no agent workflow (a yaml block with command: report)")
	return nil
}

// leastOf is the scopes every one of ps grants: the level a report must work with when
// any of the directory's agent workflows may send it.
func leastOf(ps []map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range ps[0] {
		out[k] = v
	}
	for _, p := range ps[1:] {
		for k, v := range out {
			switch {
			case p[k] == nil || p[k] == "none" || v == "none":
				out[k] = "none"
			case p[k] == "read" || v == "read":
				out[k] = "read"
			}
		}
	}
	return out
}

// withMembers adds members: read to each invocation's scopes: a repository whose
// pipelines name teams gives the action a GitHub App's token with the organization
// permission Members: read besides the workflow's scopes (README: Permissions), since a
// workflow's GITHUB_TOKEN cannot hold it.
func withMembers(run, sweep, report map[string]any) map[string]any {
	out := map[string]any{}
	for kind, p := range map[string]map[string]any{"run": run, "sweep": sweep, "report": report} {
		m := map[string]any{"members": "read"}
		for k, v := range p {
			m[k] = v
		}
		out[kind] = m
	}
	return out
}

// ownPermissions are the scenarios that set their own permissions: they play a token
// other than the documented workflows' on purpose.
var ownPermissions = []string{
	"../../../examples/doctor/scenario-scopes.yaml",
	"testdata/scenarios/custom-gates/scenario.yaml", // deployments: read, which only a deployment check needs
	"testdata/scenarios/missing-statuses-read/scenario.yaml",
	"testdata/scenarios/status-check-read-only/scenario.yaml", // statuses: read, which settings.status_check cannot write with
}

// TestDocumentedPermissionsSuffice plays every example and every test scenario with the
// scopes the documentation grants: runs with docs/setup/pipelines-nokey.yml's, sweeps with
// docs/setup/sweep-nokey.yml's, and agents' reports with those of the directory's agent
// workflows (the least of them) or, without one, docs/agents.md's. A scope the docs forget
// fails here as it would on GitHub.
func TestDocumentedPermissionsSuffice(t *testing.T) {
	run := workflowFile(t, "../../../docs/setup/pipelines-nokey.yml")
	sweep := workflowFile(t, "../../../docs/setup/sweep-nokey.yml")
	docAgent := docAgentPermissions(t)
	for _, own := range []string{"../../../.github/workflows/pipelines.yml"} {
		assert.Equal(t, run, workflowFile(t, own), "%s grants what docs/setup/pipelines-nokey.yml grants", own)
	}
	dirs, err := filepath.Glob("../../../examples/*")
	require.NoError(t, err)
	more, err := filepath.Glob("testdata/scenarios/*")
	require.NoError(t, err)
	var declared []string
	for _, dir := range append(dirs, more...) {
		files, err := filepath.Glob(filepath.Join(dir, "scenario*.yaml"))
		require.NoError(t, err)
		// The agent workflows that report; one that does not (a notification's) grants
		// nothing a report needs.
		agents, err := filepath.Glob(filepath.Join(dir, "agent-*.yml"))
		require.NoError(t, err)
		report := docAgent
		if len(agents) > 0 {
			var ps []map[string]any
			for _, a := range agents {
				if text, err := os.ReadFile(a); err == nil && bytes.Contains(text, []byte("command: report")) {
					ps = append(ps, workflowFile(t, a))
				}
			}
			if len(ps) > 0 {
				report = leastOf(ps)
			}
		}
		for _, file := range files {
			sc, err := loadScenario(file)
			require.NoError(t, err, file)
			if sc.Permissions != nil {
				declared = append(declared, filepath.ToSlash(file))
			} else {
				sc.Permissions = map[string]any{"run": run, "sweep": sweep, "report": report}
				if len(sc.Teams) > 0 {
					sc.Permissions = withMembers(run, sweep, report)
				}
			}
			t.Run(file, func(t *testing.T) {
				t.Parallel() // each plays against its own fake; -parallel bounds how many at once
				playAsDocumented(t, sc)
			})
		}
	}
	sort.Strings(declared)
	assert.Equal(t, ownPermissions, declared, "the scenarios that play a token other than the documented ones")
}

// playAsDocumented plays sc as simulate does and requires every expectation to hold.
func playAsDocumented(t *testing.T, sc *scenario) {
	t.Helper()
	files, err := scenarioConfig(sc.Rel(sc.Config))
	require.NoError(t, err)
	require.NoError(t, checkConfig(files))
	var out bytes.Buffer
	s := newSimulation(sc, files, &out)
	defer s.fake.Close()
	s.quiet = true
	failed, err := s.play(t.Context())
	require.NoError(t, err, out.String())
	assert.Zero(t, failed, out.String())
	assert.NotZero(t, s.checked, "the scenario checks something")
}
