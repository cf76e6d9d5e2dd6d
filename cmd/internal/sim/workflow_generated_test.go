package sim

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/wfgen"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// onEvent is one event of a workflow's on: block.
type onEvent struct {
	Types          []string `yaml:"types"`
	Workflows      []string `yaml:"workflows"`
	Branches       []string `yaml:"branches"`
	BranchesIgnore []string `yaml:"branches-ignore"`
}

// generatedOn is the decision of the workflow `pipeline-action workflow` writes for sc's
// config: why it starts no job for an event, or "". It counts the jobs it starts and leaves out.
type generatedOn struct {
	on   map[string]onEvent
	cond string

	mu             sync.Mutex
	started, spare int
	why            []string
	// documented is the on: of docs/setup/pipelines-nokey.yml by event, its types; before
	// counts the jobs it starts (workflow_run as the generated block's, which names the
	// repository's own workflows).
	documented map[string][]string
	before     int
}

func generatedFor(t *testing.T, sc *scenario) *generatedOn {
	t.Helper()
	files, err := scenarioConfig(sc.Rel(sc.Config))
	require.NoError(t, err)
	var src strings.Builder
	for _, f := range files {
		src.Write(f.src)
	}
	cfg, err := engine.LoadFiles(configSources(files), gates.Default())
	require.NoError(t, err)
	namer := func(file string) string {
		local, ok := sc.Files[".github/workflows/"+file]
		if !ok {
			return ".github/workflows/" + file
		}
		text, err := os.ReadFile(sc.Rel(local))
		require.NoError(t, err)
		var wf struct{ Name string }
		require.NoError(t, yaml.Unmarshal(text, &wf))
		return wf.Name
	}
	// The CI workflows the user names (--ci): the simulator's check steps run in workflows
	// named after the check, or as `workflow:` says.
	var ci []string
	for _, st := range sc.Steps {
		if c, ok := st.Value.(*checkStep); ok && c.App == "" {
			ci = append(ci, cmp.Or(c.Workflow, c.Name))
		}
	}
	block := wfgen.Block(wfgen.Needs(cfg, src.String(), namer, ci), cfg.Settings.StateBranch)
	var doc struct {
		On map[string]onEvent `yaml:"on"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(block), &doc), block)
	return &generatedOn{on: doc.On, cond: wfgen.If(cfg, src.String()), documented: documentedOn(t)}
}

func (g *generatedOn) runsOn(ev ghfake.Event) string {
	why := g.decide(ev)
	if ev.Name == "schedule" {
		return why // the sweep's own workflow: no job of this one
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	name := ev.Name
	if name == "pull_request" {
		name = "pull_request_target"
	}
	// keep_up_to_date's setup adds push to the documented workflow, for the bases.
	if name == "push" && why == "" {
		g.before++
	}
	if types, ok := g.documented[name]; ok && (len(types) == 0 || slices.Contains(types, ev.Action)) &&
		(name != "workflow_run" || !strings.HasPrefix(why, "workflow_run.workflows")) {
		g.before++
	}
	if why == "" {
		g.started++
	} else {
		g.spare++
		g.why = append(g.why, ev.Name+"."+ev.Action+": "+why)
	}
	return why
}

func (g *generatedOn) decide(ev ghfake.Event) string {
	name := ev.Name
	if name == "schedule" {
		return "" // the sweep's own workflow
	}
	if name == "pull_request" {
		name = "pull_request_target"
	}
	f, ok := g.on[name]
	switch {
	case !ok:
		return "no " + name + " under on:"
	case len(f.Types) > 0 && !slices.Contains(f.Types, ev.Action):
		return name + " types leave out " + ev.Action
	}
	var p struct {
		WorkflowRun struct{ Name string } `json:"workflow_run"`
		Comment     struct{ Body string } `json:"comment"`
		Ref         string                `json:"ref"`
	}
	_ = json.Unmarshal(ev.Payload, &p)
	if branch := strings.TrimPrefix(p.Ref, "refs/heads/"); name == "push" && !pushStarts(f, branch) {
		return "push branches leave out " + branch
	}
	if name == "workflow_run" && !slices.Contains(f.Workflows, p.WorkflowRun.Name) {
		return "workflow_run.workflows does not name " + p.WorkflowRun.Name
	}
	if g.cond == wfgen.CommandsOnly && name == "issue_comment" && !strings.Contains(p.Comment.Body, "/pipeline") {
		return "the job's if: leaves out a comment with no /pipeline command"
	}
	return ""
}

// Every example plays as its scenarios expect under the workflow `pipeline-action workflow`
// writes for its config: the block leaves out no event the config needs.
func TestGeneratedWorkflowStartsWhatExamplesNeed(t *testing.T) {
	dirs, err := filepath.Glob("../../../examples/*")
	require.NoError(t, err)
	for _, dir := range append(dirs, "testdata/scenarios/busy-auto-merge") {
		files, err := filepath.Glob(filepath.Join(dir, "scenario*.yaml"))
		require.NoError(t, err)
		for _, file := range files {
			sc, err := loadScenario(file)
			require.NoError(t, err, file)
			t.Run(file, func(t *testing.T) {
				t.Parallel()
				g := generatedFor(t, sc)
				cfgFiles, err := scenarioConfig(sc.Rel(sc.Config))
				require.NoError(t, err)
				var out bytes.Buffer
				s := newSimulation(sc, cfgFiles, &out)
				defer s.fake.Close()
				s.quiet = true
				s.runsOn = g.runsOn
				failed, err := s.play(t.Context())
				require.NoError(t, err, out.String())
				assert.Zero(t, failed, out.String())
				t.Logf("jobs started %d (documented workflow: %d), left out %d: %v", g.started, g.before, g.spare, g.why)
				assert.LessOrEqual(t, g.started, g.before, "the generated workflow starts no job the documented one does not")
				if strings.Contains(file, "busy-auto-merge") {
					// Five comments that hold no command start no job.
					assert.Equal(t, g.before-5, g.started, g.why)
				}
			})
		}
	}
}

// documentedOn is the on: of docs/setup/pipelines-nokey.yml: each event's types.
func documentedOn(t *testing.T) map[string][]string {
	text, err := os.ReadFile("../../../docs/setup/pipelines-nokey.yml")
	require.NoError(t, err)
	var doc struct {
		On map[string]struct {
			Types []string `yaml:"types"`
		} `yaml:"on"`
	}
	require.NoError(t, yaml.Unmarshal(text, &doc))
	out := map[string][]string{}
	for ev, f := range doc.On {
		out[ev] = f.Types
	}
	return out
}

// pushStarts reports whether on's push filters start a job for a push to branch: its
// branches name it, or its branches-ignore (names and name/** prefixes) do not.
func pushStarts(on onEvent, branch string) bool {
	if len(on.Branches) > 0 {
		return slices.Contains(on.Branches, branch)
	}
	for _, b := range on.BranchesIgnore {
		if b == branch || strings.HasSuffix(b, "/**") && strings.HasPrefix(branch, strings.TrimSuffix(b, "**")) {
			return false
		}
	}
	return true
}
