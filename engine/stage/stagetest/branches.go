package stagetest

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Branching is the stage.Branches of a Context over plain values: what the kernel would
// answer of branches, set by the test, and what the type asked of them.
type Branching struct {
	// Skip are the branches whose condition does not hold; CondErr those whose condition
	// cannot be decided (the error's text). Any other branch's condition holds.
	Skip    map[string]bool
	CondErr map[string]string
	// MergeStop is what MergeAll answers.
	MergeStop bool
	// Move, when set, is how StepBranch moves a branch (the kernel's machinery of its
	// type); Unsupported are the branch types StepBranch refuses.
	Move        func(b *lang.Stage)
	Unsupported map[lang.StageType]bool
	// Runs are the runs ChildRun finds, by id.
	Runs map[string]*model.Run

	// Stepped are the branches StepBranch moved, in order; Forgotten those Forget dropped.
	Stepped   []string
	Forgotten []string
}

func (c *Context) BranchHolds(b *lang.Stage) (bool, string, error) {
	if why, ok := c.CondErr[b.ID]; ok {
		return false, "", errString(why)
	}
	if c.Skip[b.ID] {
		return false, "the test's condition is false", nil
	}
	return true, "the test's condition is true", nil
}

func (c *Context) MergeAll(*lang.Stage) bool { return c.MergeStop }

func (c *Context) StepBranch(b *lang.Stage) bool {
	if c.Unsupported[b.Type] {
		return false
	}
	c.Stepped = append(c.Stepped, b.ID)
	if c.Move != nil {
		c.Move(b)
	}
	return true
}

func (c *Context) Forget(b string)               { c.Forgotten = append(c.Forgotten, b) }
func (c *Context) ChildRun(id string) *model.Run { return c.Runs[id] }

type errString string

func (e errString) Error() string { return string(e) }

// Joins is what a Guard tells of joins, by parallel stage id: whose join holds, and whose
// succeeded pipeline branches no longer all hold.
type Joins struct {
	Joined, Broken map[string]bool
}

// JoinHolds is g.Joined[par.ID].
func (g Guard) JoinHolds(par *lang.Stage) bool { return g.Joined[par.ID] }

// BranchesHold is !g.Broken[par.ID].
func (g Guard) BranchesHold(par *lang.Stage) bool { return !g.Broken[par.ID] }
