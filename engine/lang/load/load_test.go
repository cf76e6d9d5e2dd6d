package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// fakeCheck records what a fake gate compiled, so tests can compare it.
type fakeCheck struct {
	Name   string
	Count  int
	Label  string
	Expect string
	Checks []string
}

// fakeGate reads the parameters the real gate of the same name reads.
type fakeGate struct{ name string }

func (g fakeGate) Compile(p *lang.Params) (lang.Check, error) {
	c := fakeCheck{Name: g.name}
	switch g.name {
	case "human_approved":
		c.Count = p.Int("count", 1, 1)
	case "label_present":
		if !p.Has("label") {
			p.Errorf("label", "check %q needs %q", g.name, "label")
		}
		c.Label = p.String("label", "")
	case "ci_status":
		c.Expect = p.Enum("expect", "success", "success", "failure", "pending")
		c.Checks = p.Strings("checks")
	}
	return c, nil
}

// fakeRegistry holds the built-in check names with fake gates; lang cannot import gates.
type fakeRegistry struct{}

var fakeNames = []string{"ci_status", "human_approved", "label_present", "no_changes_requested"}

func (fakeRegistry) Lookup(name string) (lang.Gate, bool) {
	for _, n := range fakeNames {
		if n == name {
			return fakeGate{name: n}, true
		}
	}
	return nil, false
}

func (fakeRegistry) Names() []string { return append([]string{}, fakeNames...) }

func TestLoadExample(t *testing.T) {
	const file = "testdata/load/auto-merge.yaml"
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	cfg, err := Load(file, src, fakeRegistry{})
	require.NoError(t, err)

	pos := func(line, col int) lang.Pos { return lang.Pos{File: file, Line: line, Col: col} }
	no := false
	want := &lang.Config{
		Version:  1,
		Settings: lang.Settings{MaxNesting: 3, StateBranch: "pipeline-action/state", ChatOpsPermission: "write"},
		Pipelines: []*lang.Pipeline{
			{
				Name:        "auto-merge",
				Description: "Merge reviewed, green PRs into main",
				Pos:         pos(3, 3),
				Priority:    lang.DefaultPriority,
				Scope:       lang.ScopeSinglePR,
				HasTrigger:  true,
				Trigger: lang.Trigger{
					Event: "pull_request.opened", Pos: pos(6, 7),
					BaseBranch: "main", Labels: []string{"a", "b"}, Draft: &no, Author: "someone",
				},
				OnEvents: []lang.EventReaction{
					{Event: "pull_request.synchronize", Action: lang.ReactReevaluate, Pos: pos(13, 7)},
					{Event: "pull_request.closed", Action: lang.ReactCancel, Pos: pos(14, 7)},
				},
				Stages: []*lang.Stage{
					{
						ID: "ready", Type: lang.StageGate, Pos: pos(16, 9),
						Conditions: []lang.Condition{
							{Check: "human_approved", Pos: pos(19, 13), Eval: fakeCheck{Name: "human_approved", Count: 1}},
							{Check: "label_present", Optional: true, Pos: pos(21, 13), Eval: fakeCheck{Name: "label_present", Label: "automerge"}},
						},
						OnPass: "merge", OnFail: "fail",
					},
					{
						ID: "merge", Type: lang.StageAction, Pos: pos(26, 9),
						Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "squash", DeleteBranch: true},
						OnSuccess: "complete", OnFailure: "fail",
					},
				},
			},
			{
				Name:       "label-then-comment",
				Pos:        pos(32, 3),
				Priority:   lang.DefaultPriority,
				Scope:      lang.ScopeSinglePR,
				HasTrigger: true,
				Trigger:    lang.Trigger{Event: "pull_request.labeled", Pos: pos(34, 7), Labels: []string{"triage"}},
				Stages: []*lang.Stage{
					{
						ID: "wait", Type: lang.StageGate, Pos: pos(38, 9),
						Conditions: []lang.Condition{
							{Check: "ci_status", Pos: pos(41, 13), Eval: fakeCheck{Name: "ci_status", Expect: "success", Checks: []string{"test"}}},
						},
						OnPass: "tag",
					},
					{
						ID: "tag", Type: lang.StageAction, Pos: pos(43, 9),
						Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"triaged"}},
						OnSuccess: "thank",
					},
					{
						ID: "thank", Type: lang.StageAction, Pos: pos(47, 9),
						Action: lang.ActionComment, Config: lang.ActionConfig{Body: "Thanks!"},
						OnSuccess: "complete",
					},
				},
			},
		},
	}
	// Each pipeline carries the digest of its own definition (nodedigest's tests say what
	// changes it); the model spelt out above does not.
	require.Len(t, cfg.Pipelines, 2)
	assert.Len(t, cfg.Pipelines[0].Digest, 64)
	assert.NotEqual(t, cfg.Pipelines[0].Digest, cfg.Pipelines[1].Digest)
	for _, p := range cfg.Pipelines {
		p.Digest = ""
	}
	stripValuePos(cfg)
	require.Equal(t, want, cfg)
}

// stripValuePos clears the per-key positions, which tests of the model do not spell out.
func stripValuePos(cfg *lang.Config) {
	for _, p := range cfg.Pipelines {
		for i := range p.OnEvents {
			p.OnEvents[i].ValuePos = nil
		}
		for _, s := range p.Stages {
			s.ValuePos = nil
			for _, b := range s.Branches {
				b.ValuePos = nil
			}
		}
	}
}

func TestLoadDefaults(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want func(t *testing.T, p *lang.Pipeline)
	}{
		{
			name: "merge method defaults to merge without config",
			src:  "stages:\n  - {id: m, type: action, action: merge_pr}\n",
			want: func(t *testing.T, p *lang.Pipeline) {
				assert.Equal(t, lang.ActionConfig{Method: "merge"}, p.Stages[0].Config)
				assert.Equal(t, lang.TargetComplete, p.Stages[0].OnSuccess)
				assert.Equal(t, "", p.Stages[0].OnFailure)
			},
		},
		{
			name: "merge method defaults to merge with config",
			src:  "stages:\n  - {id: m, type: action, action: merge_pr, config: {delete_branch: true}}\n",
			want: func(t *testing.T, p *lang.Pipeline) {
				assert.Equal(t, lang.ActionConfig{Method: "merge", DeleteBranch: true}, p.Stages[0].Config)
			},
		},
		{
			name: "gate passes to the next stage and keeps waiting on failure",
			src: "stages:\n  - {id: g, type: gate, conditions: [{check: no_changes_requested}]}\n" +
				"  - {id: m, type: action, action: merge_pr}\n",
			want: func(t *testing.T, p *lang.Pipeline) {
				assert.Equal(t, "m", p.Stages[0].OnPass)
				assert.Equal(t, "", p.Stages[0].OnFail)
			},
		},
		{
			name: "labels as a list",
			src:  "stages:\n  - {id: l, type: action, action: remove_label, config: {labels: [x, y]}}\n",
			want: func(t *testing.T, p *lang.Pipeline) {
				assert.Equal(t, []string{"x", "y"}, p.Stages[0].Config.Labels)
			},
		},
		{
			name: "no trigger, no on_events",
			src:  "stages:\n  - {id: l, type: action, action: comment, config: {body: hi}}\n",
			want: func(t *testing.T, p *lang.Pipeline) {
				assert.Equal(t, lang.Trigger{}, p.Trigger)
				assert.Nil(t, p.OnEvents)
			},
		},
		{
			name: "aliases are followed",
			src: "stages:\n  - {id: g, type: gate, conditions: [&c {check: human_approved}], on_pass: g2}\n" +
				"  - {id: g2, type: gate, conditions: [*c]}\n",
			want: func(t *testing.T, p *lang.Pipeline) {
				require.Len(t, p.Stages, 2)
				assert.Equal(t, "human_approved", p.Stages[1].Conditions[0].Check)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "version: 1\npipelines:\n  p:\n    " + strings.ReplaceAll(tt.src, "\n", "\n    ")
			cfg, err := Load("p.yaml", []byte(src), fakeRegistry{})
			require.NoError(t, err)
			require.Len(t, cfg.Pipelines, 1)
			tt.want(t, cfg.Pipelines[0])
		})
	}
}

// TestLoadErrors loads every testdata/err/X.yaml and compares the errors with X.out.
// go test ./engine/ -update rewrites the .out files.
func TestLoadErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/err/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			cfg, err := Load(file, src, fakeRegistry{})
			require.Error(t, err, "the config should not load")
			assert.Nil(t, cfg)
			var list lang.ErrorList
			require.ErrorAs(t, err, &list)
			got := err.Error() + "\n"
			golden := strings.TrimSuffix(file, ".yaml") + ".out"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./engine/ -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
}

func TestLoadWithoutRegistry(t *testing.T) {
	src := "version: 1\npipelines:\n  p:\n    stages:\n      - {id: g, type: gate, conditions: [{check: ci_status}]}\n"
	_, err := Load("p.yaml", []byte(src), nil)
	require.EqualError(t, err, `p.yaml:5:50: unknown check "ci_status"; no checks are registered [gate]`)
}
