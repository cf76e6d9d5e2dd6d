package ghfake

import (
	"regexp"
	"strconv"
)

// closingKeyword is a closing keyword and an issue of the same repository in a pull request's
// body ("Fixes #12", "closes: #3"), as GitHub reads them.
// https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue
var closingKeyword = regexp.MustCompile(`(?i)\b(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved):?\s+#([0-9]+)\b`)

// closingIssues are the issues pull request pr closes when merged: those its body names after
// a closing keyword, when it targets the default branch (GitHub links them only then), that
// exist and are issues, each once.
func closingIssues(pr *issue) []*issue {
	if pr.base != pr.repo.defaultBranch {
		return nil
	}
	var out []*issue
	seen := map[int]bool{}
	for _, m := range closingKeyword.FindAllStringSubmatch(pr.body, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil || seen[n] {
			continue
		}
		seen[n] = true
		if is := pr.repo.issues[n]; is != nil && !is.isPR {
			out = append(out, is)
		}
	}
	return out
}

func init() {
	on("PullRequest", map[string]resolver{
		"closingIssuesReferences": func(_ *executor, p any, a map[string]any) (any, error) {
			var items []any
			for _, is := range closingIssues(p.(*issue)) {
				items = append(items, is)
			}
			return paginate("closingIssuesReferences", items, a)
		},
	})
}
