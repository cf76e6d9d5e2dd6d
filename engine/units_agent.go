package engine

import (
	"github.com/org/pipeline-action/engine/feedback"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

func (c *stageContext) Agent(name string) *lang.Agent { return c.e.Cfg.Agent(name) }
func (c *stageContext) Subject() string               { return c.e.Subject() }
func (c *stageContext) Delivery() string              { return c.e.Dispatch.Delivery }
func (c *stageContext) Signer() model.NonceSigner     { return c.e.Dispatch.Nonces }
func (c *stageContext) Settling() bool                { return c.e.Settling() }
func (c *stageContext) Head() string                  { return c.e.HeadOf(c.run) }
func (c *stageContext) PR() *model.PullRequest        { return c.e.RunPR(c.run) }

func (c *stageContext) Feedback() ([]any, string) {
	fb := feedback.ChangesRequested(c.e.Facts.PR)
	if len(fb) == 0 {
		return nil, ""
	}
	return feedback.AsValues(fb), feedback.Text(fb)
}

func (c *stageContext) Associate(s *lang.Stage, outputs map[string]any) {
	associate(c.e, c.p, c.run, s, outputs)
}
