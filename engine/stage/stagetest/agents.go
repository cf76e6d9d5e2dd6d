package stagetest

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Agents is what Context answers of stage.Agents: plain values a test sets.
type Agents struct {
	Subj       string
	Deliv      string
	Sign       model.NonceSigner
	IsSettling bool
	HeadSHA    string // the run's head; the facts' pull request's when ""
	// FeedbackValues and FeedbackText are what reviewers ask to change.
	FeedbackValues []any
	FeedbackText   string
	// Associated are the outputs Associate was given, by stage id.
	Associated map[string]map[string]any
}

func (c *Context) Agent(name string) *lang.Agent {
	if c.Cfg == nil {
		return nil
	}
	return c.Cfg.Agent(name)
}
func (c *Context) Subject() string           { return c.Subj }
func (c *Context) Delivery() string          { return c.Deliv }
func (c *Context) Signer() model.NonceSigner { return c.Sign }
func (c *Context) Settling() bool            { return c.IsSettling }
func (c *Context) PR() *model.PullRequest    { return c.F.PR }

func (c *Context) Head() string {
	if c.HeadSHA != "" {
		return c.HeadSHA
	}
	return c.F.PR.HeadSHA
}

func (c *Context) Feedback() ([]any, string) { return c.FeedbackValues, c.FeedbackText }

func (c *Context) Associate(s *lang.Stage, outputs map[string]any) {
	if c.Associated == nil {
		c.Associated = map[string]map[string]any{}
	}
	c.Associated[s.ID] = outputs
}
