package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// CIStatus is the `ci_status` check over the check runs and commit statuses on the PR's
// head: all of them, only those named in `checks` (check run names and status contexts),
// or only the check runs of the Actions workflows named in `workflows`. Every check of a
// name counts, whichever app reported it, as in GitHub's status rollup. With
// `expect: success` (the default) it passes when every one has succeeded; with
// `expect: failure` or `expect: pending` it passes when CI as a whole is in that state.
// With `pr` (a template naming a pull request of the run: N or owner/name#N, or "all" of
// them) the engine evaluates it on that pull request's facts (engine.PRCheck).
type CIStatus struct{}

var _ engine.Gate = CIStatus{}

// Compile reads `expect` (success | failure | pending), `checks` or `workflows` (a name
// or a list; not both) and `pr` (a template).
func (CIStatus) Compile(p *lang.Params) (engine.Check, error) {
	expect := p.Enum("expect", model.CheckSuccess, model.CheckSuccess, model.CheckFailure, model.CheckPending)
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
	for _, n := range names {
		if key == "checks" && strings.HasPrefix(n, ownStatusPrefix) {
			p.Errorf(key, "%q of check %q names %q, a status the action itself writes (settings.status_check), which no gate waits on", key, ciStatusName, n)
		}
	}
	c := ciStatus{expect: expect, names: names, byWorkflow: key == "workflows"}
	if pr := p.Template("pr"); pr != nil {
		return ciStatusOf{ciStatus: c, pr: pr}, nil
	}
	return c, nil
}

// ciStatusOf is ci_status over another pull request (`pr`).
type ciStatusOf struct {
	ciStatus
	pr *lang.Template
}

var (
	_ engine.Check   = ciStatusOf{}
	_ engine.PRCheck = ciStatusOf{}
)

// PR returns the `pr` template: the engine puts the pull request it names in f.PR.
func (c ciStatusOf) PR() *lang.Template { return c.pr }

// Evaluate reads f.PR, the pull request `pr` names.
func (c ciStatusOf) Evaluate(f *model.Facts) model.GateResult { return c.ciStatus.Evaluate(f) }

type ciStatus struct {
	expect     string
	names      []string // nil: every check (or workflow) on the head
	byWorkflow bool     // names are workflow names (`workflows`), not check names
}

var _ engine.Check = ciStatus{}

const ciStatusName = "ci_status"

// ownStatusPrefix begins the commit statuses the action writes (`pipeline-action/<pipeline>`,
// settings.status_check; ghapi.StatusPrefix). They are not CI: the facts leave them out,
// and so does this check, should they be there.
const ownStatusPrefix = "pipeline-action/"

// ciView is what CI says about the head, over the checks the condition looks at.
type ciView struct {
	noun    string // "check" or "workflow": what the names name
	failed  []string
	waiting []string // pending, or named and not reported yet
	passed  []string
}

// state sums the view up: failure if anything failed, else pending if anything is
// awaited or nothing has reported, else success.
func (v ciView) state() string {
	switch {
	case len(v.failed) > 0:
		return model.CheckFailure
	case len(v.waiting) > 0 || len(v.passed) == 0:
		return model.CheckPending
	}
	return model.CheckSuccess
}

// ciKey identifies one check on the head: a commit status by its context, a check run by
// its app, its check suite and its name. Results with the same key are runs of the same
// check; the later one replaces the earlier (a re-run). Any other result counts on its own.
type ciKey struct {
	kind, app, suite, name string
}

func keyOf(cr model.CheckResult) ciKey {
	if cr.Kind == "status" {
		return ciKey{kind: cr.Kind, name: cr.Name}
	}
	return ciKey{kind: cr.Kind, app: cr.App, suite: cr.Suite, name: cr.Name}
}

// severity orders check states from best to worst; a state we do not know is a failure.
func severity(state string) int {
	switch state {
	case model.CheckSuccess:
		return 0
	case model.CheckPending:
		return 1
	}
	return 2
}

// view collects the checks on the head, by name (check run name or status context; the
// workflow name of a check run's suite for `workflows`). Every check that bears a name
// counts: a passing status does not hide a failed check run of the same name, nor one app's
// check run another's. Only a re-run of the same check (same key) replaces a result.
func (c ciStatus) view(pr *model.PullRequest) ciView {
	v := ciView{noun: "check"}
	if c.byWorkflow {
		v.noun = "workflow"
	}
	latest := map[ciKey]int{} // index into results
	var results []model.CheckResult
	for _, cr := range pr.Checks {
		if cr.Kind == "status" && strings.HasPrefix(cr.Name, ownStatusPrefix) {
			continue // the action's own: a pipeline would wait on itself
		}
		k := keyOf(cr)
		if i, ok := latest[k]; ok {
			results[i] = cr
			continue
		}
		latest[k] = len(results)
		results = append(results, cr)
	}
	worst := map[string]string{}
	var order []string
	for _, cr := range results {
		name := cr.Name
		if c.byWorkflow {
			if cr.Kind != "check_run" || cr.Workflow == "" {
				continue // not a workflow's job
			}
			name = cr.Workflow
		}
		prev, seen := worst[name]
		if !seen {
			order = append(order, name)
		}
		if !seen || severity(cr.State) > severity(prev) {
			worst[name] = cr.State
		}
	}
	if c.names != nil {
		order = c.names
	}
	for _, name := range order {
		switch st, ok := worst[name]; {
		case !ok || st == model.CheckPending:
			v.waiting = append(v.waiting, name)
		case st == model.CheckSuccess:
			v.passed = append(v.passed, name)
		default: // failure, or a state we do not know: fail closed
			v.failed = append(v.failed, name)
		}
	}
	return v
}

// Evaluate compares the state of CI on the head with what the condition expects.
func (c ciStatus) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(ciStatusName) // fail closed
	}
	res := model.GateResult{Check: ciStatusName}
	if f.PR.HeadSHA == "" {
		res.Status = model.GateError // fail closed
		res.Message = "the head commit of the pull request is unknown"
		return res
	}
	sha := shortSHA(f.PR.HeadSHA)
	res.Who = "CI on " + sha
	v := c.view(f.PR)
	state := v.state()
	if c.expect == model.CheckSuccess {
		switch state {
		case model.CheckFailure:
			res.Status = model.GateFail
			res.Message = fmt.Sprintf("%s %s failed", model.Plural(len(v.failed), v.noun, v.noun+"s"), quoteAnd(v.failed))
		case model.CheckPending:
			res.Status = model.GatePending
			if len(v.waiting) == 0 {
				res.Message = fmt.Sprintf("no checks have reported on %s yet", sha)
			} else {
				res.Message = "waiting for " + quoteAnd(v.waiting)
			}
		default:
			res.Status, res.Who = model.GatePass, ""
			res.Message = fmt.Sprintf("all %d %ss passed", len(v.passed), v.noun)
			if len(v.passed) == 1 {
				res.Message = fmt.Sprintf("%s %q passed", v.noun, v.passed[0])
			}
		}
		return res
	}
	if state == c.expect {
		res.Status, res.Who = model.GatePass, ""
		res.Message = fmt.Sprintf("CI on %s is %s, as expected", sha, ciWord[state])
		return res
	}
	res.Status = model.GateFail
	if state == model.CheckPending {
		res.Status = model.GatePending // it may still turn out as expected
	}
	res.Message = fmt.Sprintf("CI on %s is %s; expected it to be %s", sha, ciWord[state], ciWord[c.expect])
	return res
}

var ciWord = map[string]string{
	model.CheckSuccess: "passing",
	model.CheckFailure: "failing",
	model.CheckPending: "pending",
}

// Watches says what the condition waits for: the workflow names of `workflows`
// (byWorkflow), or the check names of `checks` (nil: every check on the head). doctor
// compares the workflow names with what the action's workflow listens to.
func (c ciStatus) Watches() (names []string, byWorkflow bool) { return c.names, c.byWorkflow }
