package sim

import (
	"cmp"
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
func (s *simulation) stateBranch() string { branch, _ := s.branchOf.read(s.config); return branch }

// read is what the simulation reads of config, the config on the default branch now: the
// state branch, and whether a pipeline has keep_up_to_date (its workflow then runs the
// action on push).
func (c *branchCache) read(config []scenarioFile) (branch string, keeps bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var of *scenarioFile
	if len(config) > 0 {
		of = &config[0]
	}
	if c.branch != "" && c.of == of && c.n == len(config) {
		return c.branch, c.keeps
	}
	c.of, c.n, c.branch, c.keeps = of, len(config), lang.DefaultStateBranch, false
	if cfg, err := engine.LoadFiles(configSources(config), gates.Default()); err == nil {
		c.branch = cmp.Or(cfg.Settings.StateBranch, c.branch)
		c.keeps = cfg.KeepsUpToDate()
	}
	return c.branch, c.keeps
}
