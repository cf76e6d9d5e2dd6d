package validate

import (
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// checkMultiPRScopes: a `scope: multi-pr` pipeline's runs have an issue as their subject,
// so its trigger is an issues.* event.
func checkMultiPRScopes(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	f := &findings{}
	for _, p := range cfg.Pipelines {
		t := p.Trigger
		if p.Scope == lang.ScopeMultiPR && t.Event != "" && !strings.HasPrefix(t.Event, "issues.") {
			f.errorf(t.Pos, KindValue, "pipeline %q has scope: multi-pr, whose runs start on an issue and follow its pull requests: its trigger must be an issues.* event (issues.opened, issues.labeled, …), not %s", p.Name, t.Event)
		}
	}
	return f.errs, f.warnings
}
