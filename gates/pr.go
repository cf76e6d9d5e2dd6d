package gates

import (
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// The `pr` parameter of the checks that read one pull request's reviews, labels or checks
// (ci_status, label_present, no_changes_requested, human_approved): in an issue's or a
// multi-PR run, `pr: "{{ context.prs[1] }}"` reads that pull request of the run, `pr: all`
// every one (all must pass). The engine renders it and puts the pull request in f.PR
// (engine.PRCheck); the check itself reads f.PR as always.

// onPR is a check with `pr`.
type onPR struct {
	engine.Check
	pr *lang.Template
}

var _ engine.PRCheck = onPR{}

// PR returns the `pr` template.
func (c onPR) PR() *lang.Template { return c.pr }

// withPR reads `pr` and wraps c with it; c as it is without one.
func withPR(p *lang.Params, c engine.Check) engine.Check {
	t := p.Template("pr")
	if t == nil || c == nil {
		return c
	}
	return onPR{Check: c, pr: t}
}

// Group is the group the wrapped check names (human_approved's `from`), for validation and
// for reading its members.
func (c onPR) Group() string {
	if g, ok := c.Check.(GroupRef); ok {
		return g.Group()
	}
	return ""
}

// HeadIndependent is the wrapped check's.
func (c onPR) HeadIndependent() bool {
	h, ok := c.Check.(model.HeadIndependent)
	return ok && h.HeadIndependent()
}
