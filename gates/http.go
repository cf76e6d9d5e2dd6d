package gates

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// HTTP is the `http` check: a GET to an https url, whose answer the expression `expect`
// judges as `response` (`response.status`, `response.json`), or as `outputs`, the root a
// webhook stage keeps its answer under (the same answer either way). The check is pure: the action makes the GET before it evaluates,
// once per url and invocation, through the webhook client and its address guard, only
// to hosts settings.webhooks.allow lists, and puts the answer in the facts. The gate waits while `expect` is false, and fails closed when the GET
// gave no answer or `expect` cannot be evaluated.
type HTTP struct{}

var _ engine.Gate = HTTP{}

const httpName = "http"

// Compile reads `url`, an https url without credentials, and `expect`, an expression
// over `response` (or `outputs`); both are required.
func (HTTP) Compile(p *lang.Params) (engine.Check, error) {
	before := len(p.Errors())
	for _, k := range []string{"url", "expect"} {
		if !p.Has(k) {
			p.Errorf(k, "missing required key %q for check %q", k, httpName)
		}
	}
	raw := p.String("url", "")
	var e *lang.Expr
	if p.Has("expect") {
		e = p.ExprAs("expect", "response", "outputs")
	}
	if len(p.Errors()) > before || e == nil {
		return nil, nil
	}
	u, err := url.Parse(raw)
	switch {
	case strings.Contains(raw, "{{"):
		// The url is read once per invocation, for every run alike, before any run is
		// evaluated: there is no run to render it with, and text a run reads (a branch
		// name, a title) is the pull request author's, which must not choose where the GET goes.
		p.Errorf("url", "%q of check %q holds a template; it is sent as written: write the url itself (a custom gate's parameters are filled in at load)", "url", httpName)
	case err != nil:
		p.Errorf("url", "%q of check %q does not parse: %v", "url", httpName, err)
	case u.Scheme != "https" || u.Host == "":
		p.Errorf("url", "%q of check %q must be an https url, not %q", "url", httpName, raw)
	case u.User != nil:
		p.Errorf("url", "%q of check %q must not carry credentials", "url", httpName)
	default:
		return httpCheck{url: raw, expect: e}, nil
	}
	return nil, nil
}

type httpCheck struct {
	url    string
	expect *lang.Expr
}

var _ engine.Check = httpCheck{}

// URL is the url the action GETs for the check.
func (c httpCheck) URL() string { return c.url }

// Evaluate judges the url's answer with `expect`.
func (c httpCheck) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(httpName) // fail closed
	}
	res := model.GateResult{Check: httpName, Status: model.GateError}
	a, ok := f.PR.HTTP[c.url]
	switch {
	case !ok:
		res.Message = fmt.Sprintf("GET %s was not made", c.url)
		return res
	case a.Err != "":
		res.Message = fmt.Sprintf("GET %s: %s", c.url, a.Err)
		return res
	}
	pass, err := c.expect.Bool(lang.Env{"outputs": a.Outputs()})
	switch {
	case err != nil:
		res.Message = fmt.Sprintf("GET %s answered %d; %q cannot be evaluated: %v", c.url, a.Status, c.expect.Src, err)
	case pass:
		res.Status = model.GatePass
		res.Message = fmt.Sprintf("GET %s answered %d; %q holds", c.url, a.Status, c.expect.Src)
	default:
		res.Status, res.Who = model.GatePending, c.url
		res.Message = fmt.Sprintf("GET %s answered %d; %q does not hold yet", c.url, a.Status, c.expect.Src)
	}
	return res
}
