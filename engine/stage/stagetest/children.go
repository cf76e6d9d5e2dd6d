package stagetest

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kids is the stage.Children of a Context over plain values: the child each stage's Child
// gives (set by the test), and the children the type ended.
type Kids struct {
	// Kid is the child run of each stage or branch, by its id; NoKid why none could start,
	// and Fatal whether that fails the run.
	Kid   map[string]*model.Run
	NoKid map[string]string
	Fatal map[string]bool

	// Ended are the children EndChild cancelled, with why.
	Ended []string
}

func (c *Context) Child(s *lang.Stage) (*model.Run, string, bool) {
	if k := c.Kid[s.ID]; k != nil {
		return k, "", false
	}
	return nil, c.NoKid[s.ID], c.Fatal[s.ID]
}

func (c *Context) EndChild(child *model.Run, why string) {
	child.Status = model.RunCancelled
	c.Ended = append(c.Ended, child.ID+": "+why)
}

// Subs is what a Guard tells of sub-pipelines: those that hold, by stage id.
type Subs struct {
	SubHeld map[string]bool
}

// SubHolds is g.SubHeld[s.ID].
func (g Guard) SubHolds(s *lang.Stage) bool { return g.SubHeld[s.ID] }
