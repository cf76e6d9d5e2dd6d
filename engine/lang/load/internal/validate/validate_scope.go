package validate

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// checkIssueScopes: a `scope: issue` pipeline starts on issues, so its trigger is an issues.*
// event (a pipeline with a pull_request.* trigger would never start); and a trigger on an
// issue cannot ask for a base branch or a draft, which issues do not have.
func checkIssueScopes(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	f := &findings{}
	for _, p := range cfg.Pipelines {
		t := p.Trigger
		if t.Event == "" {
			continue
		}
		onIssues := strings.HasPrefix(t.Event, "issues.")
		if p.Scope == lang.ScopeIssue && !onIssues {
			f.errorf(t.Pos, KindValue, "pipeline %q has scope: issue, so it starts on issues: its trigger must be an issues.* event (issues.opened, issues.labeled, …), not %s", p.Name, t.Event)
		}
		if !onIssues && p.Scope != lang.ScopeIssue {
			continue
		}
		var bad []string
		if t.BaseBranch != "" {
			bad = append(bad, "base_branch")
		}
		if t.Draft != nil {
			bad = append(bad, "draft")
		}
		if len(bad) > 0 {
			f.errorf(t.Pos, KindValue, "%s", fmt.Sprintf("pipeline %q starts on issues, which have no %s: its trigger cannot ask for it", p.Name, strings.Join(bad, " or ")))
		}
	}
	return f.errs, f.warnings
}
