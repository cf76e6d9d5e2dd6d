package world

import (
	"regexp"
	"strconv"
	"time"
)

// closingKeyword is a closing keyword and an issue in a pull request's body ("Fixes #12",
// "closes: #3", "Resolves other/repo#4"), as GitHub reads them.
// https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue
var closingKeyword = regexp.MustCompile(`(?i)\b(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved):?\s+` +
	`(?:([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)?#([0-9]+)|https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/issues/([0-9]+))\b`)

// ClosingIssues are the issues pull request pr closes when merged: those its body names after
// a closing keyword, when it targets the default branch (GitHub links them only then), that
// exist and are issues, each once.
func (s *World) ClosingIssues(pr *Issue) []*Issue {
	if pr.Base != pr.Repo.DefaultBranch {
		return nil
	}
	var out []*Issue
	seen := map[*Issue]bool{}
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

// CloseLinkedIssues closes the issues a merged pull request closes (closingIssues: closing
// keywords in its body, when it targets the default branch), as GitHub does on the merge.
// The caller holds Mu.
func (s *World) CloseLinkedIssues(pr *Issue, now time.Time) {
	for _, is := range s.ClosingIssues(pr) {
		if is.State == "closed" {
			continue
		}
		is.State, is.ClosedAt, is.UpdatedAt = "closed", now, now
	}
}
