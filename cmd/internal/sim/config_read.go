package sim

import (
	"cmp"
	"slices"
	"sync"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"
)

// branchCache is the state branch named by one config (the files of s.config, by identity:
// change_config sets a new slice).
type branchCache struct {
	mu     sync.Mutex
	of     *scenarioFile
	n      int
	branch string
	keeps  bool // a pipeline has keep_up_to_date
}

// stateBranch is the branch that holds the state: settings.state_branch of the config on
// the default branch now, or the default.
func (s *simulation) stateBranch() string { return s.configRead().branch }

// keepsUpToDate reports whether a pipeline of the config has keep_up_to_date: its workflow
// then runs the action on push.
func (s *simulation) keepsUpToDate() bool { return s.configRead().keeps }

// configRead is what the simulation reads of the config on the default branch now.
func (s *simulation) configRead() *branchCache {
	c := &s.branchOf
	c.mu.Lock()
	defer c.mu.Unlock()
	var of *scenarioFile
	if len(s.config) > 0 {
		of = &s.config[0]
	}
	if c.branch != "" && c.of == of && c.n == len(s.config) {
		return c
	}
	c.of, c.n, c.branch, c.keeps = of, len(s.config), lang.DefaultStateBranch, false
	if cfg, err := engine.LoadFiles(configSources(s.config), gates.Default()); err == nil {
		c.branch = cmp.Or(cfg.Settings.StateBranch, c.branch)
		c.keeps = slices.ContainsFunc(cfg.Pipelines, func(p *lang.Pipeline) bool { return p.KeepUpToDate != nil })
	}
	return c
}
