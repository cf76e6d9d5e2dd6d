package gates

import (
	"fmt"

	"github.com/org/pipeline-action/engine"
)

// CIStatus is the `ci_status` check over the check runs and commit statuses on the PR's
// head: all of them, or only those named in `checks` (or `workflows`, the reference's
// word for the same list). With `expect: success` (the default) it passes when every one
// has succeeded; with `expect: failure` or `expect: pending` it passes when CI as a whole
// is in that state. With `pr` (a template naming another pull request, or "all" of a
// multi-PR pipeline's) it loads but cannot be evaluated yet.
type CIStatus struct{}

var _ engine.Gate = CIStatus{}

// Compile reads `expect` (success | failure | pending), `checks` or `workflows` (a name
// or a list; not both) and `pr` (a template).
func (CIStatus) Compile(p *engine.Params) (engine.Check, error) {
	expect := p.Enum("expect", engine.CheckSuccess, engine.CheckSuccess, engine.CheckFailure, engine.CheckPending)
	key := "checks"
	if p.Has("workflows") {
		key = "workflows"
		if p.Has("checks") {
			p.Strings("checks")
			p.Errorf("workflows", "%q and %q of check %q are the same list; write only one", "checks", "workflows", ciStatusName)
		}
	}
	before := len(p.Errors())
	names := p.Strings(key)
	if p.Has(key) && len(names) == 0 && len(p.Errors()) == before {
		p.Errorf(key, "%q of check %q must name at least one check", key, ciStatusName)
	}
	c := ciStatus{expect: expect, names: names}
	if pr := p.Template("pr"); pr != nil {
		return ciStatusOf{ciStatus: c, pr: pr}, nil
	}
	return c, nil
}

// ciStatusOf is ci_status over another pull request (`pr`).
type ciStatusOf struct {
	ciStatus
	pr *engine.Template
}

var (
	_ engine.Check       = ciStatusOf{}
	_ engine.Unsupported = ciStatusOf{}
)

// PR returns the `pr` template.
func (c ciStatusOf) PR() *engine.Template { return c.pr }

// Unsupported says what evaluating the check lacks.
func (ciStatusOf) Unsupported() string {
	return `check "ci_status" with "pr" (the facts cover only the pipeline's own pull request)`
}

// Evaluate fails closed: the facts hold no other pull request.
func (c ciStatusOf) Evaluate(*engine.Facts) engine.GateResult { return unsupported(ciStatusName, c) }

type ciStatus struct {
	expect string
	names  []string // nil: every check on the head
}

var _ engine.Check = ciStatus{}

const ciStatusName = "ci_status"

// ciView is what CI says about the head, over the checks the condition looks at.
type ciView struct {
	failed  []string
	waiting []string // pending, or named and not reported yet
	passed  []string
}

// state sums the view up: failure if anything failed, else pending if anything is
// awaited or nothing has reported, else success.
func (v ciView) state() string {
	switch {
	case len(v.failed) > 0:
		return engine.CheckFailure
	case len(v.waiting) > 0 || len(v.passed) == 0:
		return engine.CheckPending
	}
	return engine.CheckSuccess
}

// view collects the checks on the head. When a name appears more than once (a re-run),
// the later entry wins.
func (c ciStatus) view(pr *engine.PullRequest) ciView {
	latest := map[string]string{}
	var order []string
	for _, cr := range pr.Checks {
		if _, seen := latest[cr.Name]; !seen {
			order = append(order, cr.Name)
		}
		latest[cr.Name] = cr.State
	}
	if c.names != nil {
		order = c.names
	}
	var v ciView
	for _, name := range order {
		switch st, ok := latest[name]; {
		case !ok || st == engine.CheckPending:
			v.waiting = append(v.waiting, name)
		case st == engine.CheckSuccess:
			v.passed = append(v.passed, name)
		default: // failure, or a state we do not know: fail closed
			v.failed = append(v.failed, name)
		}
	}
	return v
}

// Evaluate compares the state of CI on the head with what the condition expects.
func (c ciStatus) Evaluate(f *engine.Facts) engine.GateResult {
	if f == nil || f.PR == nil {
		return noPR(ciStatusName) // fail closed
	}
	res := engine.GateResult{Check: ciStatusName}
	if f.PR.HeadSHA == "" {
		res.Status = engine.GateError // fail closed
		res.Message = "the head commit of the pull request is unknown"
		return res
	}
	sha := shortSHA(f.PR.HeadSHA)
	res.Who = "CI on " + sha
	v := c.view(f.PR)
	state := v.state()
	if c.expect == engine.CheckSuccess {
		switch state {
		case engine.CheckFailure:
			res.Status = engine.GateFail
			res.Message = fmt.Sprintf("%s %s failed", plural(len(v.failed), "check", "checks"), quoteAnd(v.failed))
		case engine.CheckPending:
			res.Status = engine.GatePending
			if len(v.waiting) == 0 {
				res.Message = fmt.Sprintf("no checks have reported on %s yet", sha)
			} else {
				res.Message = "waiting for " + quoteAnd(v.waiting)
			}
		default:
			res.Status, res.Who = engine.GatePass, ""
			res.Message = fmt.Sprintf("all %d checks passed", len(v.passed))
			if len(v.passed) == 1 {
				res.Message = fmt.Sprintf("check %q passed", v.passed[0])
			}
		}
		return res
	}
	if state == c.expect {
		res.Status, res.Who = engine.GatePass, ""
		res.Message = fmt.Sprintf("CI on %s is %s, as expected", sha, ciWord[state])
		return res
	}
	res.Status = engine.GateFail
	if state == engine.CheckPending {
		res.Status = engine.GatePending // it may still turn out as expected
	}
	res.Message = fmt.Sprintf("CI on %s is %s; expected it to be %s", sha, ciWord[state], ciWord[c.expect])
	return res
}

var ciWord = map[string]string{
	engine.CheckSuccess: "passing",
	engine.CheckFailure: "failing",
	engine.CheckPending: "pending",
}
