package stagetest

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Acts is the stage.Actions of a Context over plain values: what the kernel would answer,
// set by the test, and what the type asked for.
type Acts struct {
	// Plans are what PlanAction gives, by stage id; a stage without one gets its effect
	// back to ask for, as it came.
	Plans map[string]stage.Plan
	// GuardWhy and GuardBack are what GuardMerge gives.
	GuardWhy  string
	GuardBack bool
	// PollWhy is what MergeabilityPoll gives (the last poll spent); Polled counts the calls.
	PollWhy string
	Polled  int
	// RuleKinds are the kinds of the rules whose effects were asked for, in order.
	RuleKinds []string
	Other     string
	Issue     bool
}

func (c *Context) PlanAction(s *lang.Stage, eff model.Effect) stage.Plan {
	if p, ok := c.Plans[s.ID]; ok {
		return p
	}
	return stage.Plan{Eff: eff}
}

func (c *Context) GuardMerge(*lang.Stage) (string, bool) { return c.GuardWhy, c.GuardBack }

func (c *Context) MergeabilityPoll(*model.StageRun, string) string {
	c.Polled++
	return c.PollWhy
}

func (c *Context) RuleEffects(_ *lang.Stage, _ *lang.Rule, kind string) {
	c.RuleKinds = append(c.RuleKinds, kind)
}

func (c *Context) DoneWhy(s *lang.Stage) string { return "done: " + s.Action }

func (c *Context) OtherRepo() string { return c.Other }
func (c *Context) IssueRun() bool    { return c.Issue }
