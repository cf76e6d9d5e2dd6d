package cli

import (
	"context"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
)

// extraFacts reads what only some checks need, when a config in use (cfg, or one a run is
// pinned to) names them: for branch_up_to_date, how far the head is behind its base (one
// REST call). Facts of a pull request that is not open are left as they are.
func extraFacts(ctx context.Context, client *ghapi.Client, cfg *engine.Config, f *engine.Facts) error {
	if f == nil || f.PR == nil || f.PR.State != engine.PROpen || !usesCheck(cfg, "branch_up_to_date") {
		return nil
	}
	n, err := client.BehindBy(ctx, f.PR.BaseRef, f.PR.HeadSHA)
	if err != nil {
		return err
	}
	f.PR.BehindBy = &n
	return nil
}

// usesCheck reports whether a gate of cfg, or of a config it pins, names check.
func usesCheck(cfg *engine.Config, check string) bool {
	configs := []*engine.Config{cfg}
	for _, c := range cfg.Pinned {
		if c != nil {
			configs = append(configs, c)
		}
	}
	for _, c := range configs {
		for _, p := range c.Pipelines {
			for _, s := range p.Stages {
				for _, cond := range s.Conditions {
					if cond.Check == check {
						return true
					}
				}
				for _, group := range s.AnyOf {
					for _, cond := range group {
						if cond.Check == check {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
