package ghapi

import (
	"regexp"
	"sync"
)

// workflowRefusal is GitHub's refusal to let a GitHub App without the `workflows`
// permission create or update a file under .github/workflows/ — which merging a pull
// request that changes one does. The Actions GITHUB_TOKEN never has that permission.
// A personal or OAuth token without the `workflow` scope is refused the same way.
var workflowRefusal = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("refusing to allow an? .{1,40}? to create or update workflow `?([^` ]*)`? without `?workflows?`? (?:permission|scope)")
})

// workflowsPermission says, for a refusal of that kind, why and what to do; "" for others.
// Such a refusal is a 403, which is not retried (see permanent).
func workflowsPermission(message string) string {
	m := workflowRefusal().FindStringSubmatch(message)
	if m == nil {
		return ""
	}
	file := m[1]
	if file == "" {
		file = "a file under .github/workflows/"
	}
	return "the pull request changes " + file + ", and GitHub lets only a token with the `workflows` permission (a GitHub App's or a " +
		"fine-grained token's; the `workflow` scope of a classic one) merge such a change, and the Actions GITHUB_TOKEN never has it: " +
		"merge it by hand, or give the action such a token (" + message + ")"
}
