package engine

import (
	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"
)

func (c *stageContext) Authority() *authority.Rules { return c.e.Rules() }
func (c *stageContext) Refused() bool               { return c.e.WasRefused(c.run) }

func (g *guardCheck) Authority() *authority.Rules { return g.e.Rules() }
func (g *guardCheck) Run() *model.Run             { return g.run }
