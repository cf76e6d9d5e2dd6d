// Package stagetest plays a stage type alone, for its tests: a config loaded from YAML, a
// run standing at one of its stages, and a Context over plain values that records what
// the type asked for.
package stagetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/require"
)

// Config loads src as a config whose gate checks all exist: their results are the test's,
// through Context.Results.
func Config(t *testing.T, src string) *lang.Config {
	t.Helper()
	cfg, err := load.Load("pipelines.yaml", []byte(src), registry{})
	require.NoError(t, err)
	return cfg
}

// Load is the pipeline named name of the config src.
func Load(t *testing.T, src, name string) *lang.Pipeline {
	t.Helper()
	p := Config(t, src).Pipeline(name)
	require.NotNil(t, p, "pipeline %q", name)
	return p
}

// At is a run of p standing at the first attempt of its stage id, and that stage.
func At(t *testing.T, p *lang.Pipeline, id string) (*model.Run, *lang.Stage) {
	t.Helper()
	s := p.Stage(id)
	require.NotNil(t, s, "stage %q", id)
	run := &model.Run{ID: "p#1", Pipeline: p.Name, Stage: id, Status: model.RunRunning,
		Stages: map[string]*model.StageRun{id: {Attempt: 1, Status: model.StageWaiting}}}
	return run, s
}

// Context is a stage.Context over plain values.
type Context struct {
	F *model.Facts
	S lang.Settings
	// Cfg is the config whose agents and groups the Context reads; none when nil.
	Cfg  *lang.Config
	P    *lang.Pipeline
	T    time.Time
	Vars lang.Env
	// Results are what Conditions gives, by stage id; a stage without results holds.
	Results map[string][]model.GateResult

	Emitted  []model.Effect
	Intended []model.Effect
	Log      []string
	Agents
	// Acts is what the Actions of the Context give and record.
	Acts
	People
	Branching
	Kids
}

// New is a Context for p at now, on pull request 7 at head "abc1234def".
func New(p *lang.Pipeline, now time.Time) *Context {
	return &Context{F: &model.Facts{Repo: "o/r", PR: &model.PullRequest{Number: 7, HeadSHA: "abc1234def", State: model.PROpen}},
		P: p, T: now, Vars: lang.Env{}, Results: map[string][]model.GateResult{}}
}

func (c *Context) Facts() *model.Facts      { return c.F }
func (c *Context) Settings() *lang.Settings { return &c.S }
func (c *Context) Pipeline() *lang.Pipeline { return c.P }
func (c *Context) Now() time.Time           { return c.T }
func (c *Context) Env() lang.Env            { return c.Vars }
func (c *Context) TemplateEnv() lang.Env    { return c.Vars }
func (c *Context) Emit(eff model.Effect)    { c.Emitted = append(c.Emitted, eff) }

func (c *Context) Intend(sr *model.StageRun, eff *model.Effect) {
	eff.WriteAhead = true
	c.Intended = append(c.Intended, *eff)
}

func (c *Context) Logf(format string, args ...any) {
	c.Log = append(c.Log, fmt.Sprintf(format, args...))
}

// Conditions gives the results set for s: blocked when a required one does not pass,
// failed when one fails.
func (c *Context) Conditions(s *lang.Stage) ([]model.GateResult, bool, bool) {
	rs := c.Results[s.ID]
	blocked, failed := false, false
	for _, r := range rs {
		if r.Optional || r.Status == model.GatePass {
			continue
		}
		blocked = true
		failed = failed || r.Status == model.GateFail
	}
	return rs, blocked, failed
}

// Guard is a stage.Guard over plain values, by stage id.
type Guard struct {
	Skipped, Held, Failed map[string]bool
	Witnessed
	Joins
	Subs
}

func (g Guard) Skips(s *lang.Stage) bool   { return g.Skipped[s.ID] }
func (g Guard) Holds(s *lang.Stage) bool   { return g.Held[s.ID] }
func (g Guard) Failing(s *lang.Stage) bool { return g.Failed[s.ID] }

// registry knows every check name: a stage type's test decides its results.
type registry struct{}

func (registry) Lookup(name string) (lang.Gate, bool) { return gate{}, true }
func (registry) Names() []string                      { return nil }

type gate struct{}

func (gate) Compile(p *lang.Params) (lang.Check, error) { return check{}, nil }

type check struct{}

func (check) Evaluate(*model.Facts) model.GateResult { return model.GateResult{Status: model.GatePass} }
