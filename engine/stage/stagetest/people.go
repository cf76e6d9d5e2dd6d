package stagetest

import (
	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// People are the rules of whose action counts for a Context or a Guard: the config's
// groups (Context.Cfg) on the Context's facts, at its time; Refusal is what Refused reports.
type People struct {
	Refusal bool
}

// Authority is the rules of authority on c's facts and config, for a pull request's run.
func (c *Context) Authority() *authority.Rules {
	cfg := c.Cfg
	if cfg == nil {
		cfg = &lang.Config{}
	}
	return &authority.Rules{Cfg: cfg, Facts: c.F, Now: c.T}
}

// Refused reports c.Refusal.
func (c *Context) Refused() bool { return c.Refusal }

// Witnessed is what a Guard tells of people: the rules (nil: none counts) and the run walked.
type Witnessed struct {
	Rules  *authority.Rules
	Walked *model.Run
}

// Authority is g.Rules.
func (g Guard) Authority() *authority.Rules { return g.Rules }

// Run is g.Walked.
func (g Guard) Run() *model.Run { return g.Walked }
