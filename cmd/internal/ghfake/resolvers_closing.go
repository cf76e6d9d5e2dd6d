package ghfake

import (
	"regexp"
	"strconv"
)

// closingKeyword is a closing keyword and an issue in a pull request's body ("Fixes #12",
// "closes: #3", "Resolves other/repo#4"), as GitHub reads them.
// https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue
var closingKeyword = regexp.MustCompile(`(?i)\b(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved):?\s+` +
	`(?:([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)?#([0-9]+)|https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/issues/([0-9]+))\b`)

// closingIssues are the issues pull request pr closes when merged: those its body names after
// a closing keyword, when it targets the default branch (GitHub links them only then), that
// exist and are issues, each once.
func (s *Server) closingIssues(pr *issue) []*issue {
	if pr.Base != pr.Repo.DefaultBranch {
		return nil
	}
	var out []*issue
	seen := map[*issue]bool{}
	for _, m := range closingKeyword.FindAllStringSubmatch(pr.Body, -1) {
		where, num := m[1], m[2]
		if m[4] != "" { // the issue's URL
			where, num = m[3], m[4]
		}
		r := pr.Repo
		if where != "" {
			if r = s.Repos[where]; r == nil {
				continue
			}
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		if is := r.Issues[n]; is != nil && !is.IsPR && !seen[is] {
			seen[is] = true
			out = append(out, is)
		}
	}
	return out
}

func closingResolvers() {
	on("PullRequest", map[string]resolver{
		"closingIssuesReferences": func(e *executor, p any, a map[string]any) (any, error) {
			var items []any
			for _, is := range e.s.closingIssues(p.(*issue)) {
				items = append(items, is)
			}
			return paginate("closingIssuesReferences", items, a)
		},
	})
}
