package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// joinAnd joins names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// quoteAnd quotes names and joins them as joinAnd does.
func quoteAnd(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return joinAnd(q)
}

// shortSHA returns the first 7 characters of a commit id, as GitHub shows it.
func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// noPR is the result of a check that needs a pull request when the facts hold none:
// it fails closed.
func noPR(check string) model.GateResult {
	return model.GateResult{
		Check:   check,
		Status:  model.GateError,
		Message: fmt.Sprintf("there is no pull request to check; %q works only on pull requests", check),
	}
}
