package ghapi

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/org/pipeline-action/engine/model"
)

// GitHub links a pull request to the issues its body names after a closing keyword
// ("Fixes #3") only when the pull request is into the default branch; into another branch
// it links none, and closingIssuesReferences is empty. There the action reads the keywords
// from the body itself, by GitHub's rules, so that close_issue: linked_issue still finds
// the issue, and says so (PullRequest.LinkedFrom).
// https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue

// closingRef is a closing keyword and the issue after it: #N, owner/repo#N, or the issue's
// URL; the keyword may end with a colon ("Closes: #3"), case does not matter.
var closingRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\w/])(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved):?[ \t]+` +
		`(?:([\w.-]+/[\w.-]+)?#([0-9]+)|https://github\.com/([\w.-]+/[\w.-]+)/issues/([0-9]+))\b`)
})

// closingIssuesInBody returns the issues of repo (owner/name) that body names after a
// closing keyword, in order, each once. Those of other repositories are not this one's.
// Keywords inside code (fenced blocks, inline spans) do not count, as on GitHub.
func closingIssuesInBody(body, repo string) []int {
	var out []int
	seen := map[int]bool{}
	for _, m := range closingRef().FindAllStringSubmatch(stripCode(body), -1) {
		where, num := m[1], m[2]
		if m[4] != "" {
			where, num = m[3], m[4]
		}
		if where != "" && !strings.EqualFold(where, repo) {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

var (
	fencedCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```.*?(```|$)|~~~.*?(~~~|$)") })
	inlineCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`\n]*`") })
)

// stripCode blanks markdown code, where GitHub does not read keywords.
func stripCode(body string) string {
	return inlineCode().ReplaceAllString(fencedCode().ReplaceAllString(body, " "), " ")
}

// linkFromBody fills pr's linked issues from its body when GitHub linked none because the
// pull request is not into the default branch.
func linkFromBody(pr *model.PullRequest, body, repo, defaultBranch string) {
	if pr == nil || len(pr.LinkedIssues) > 0 || defaultBranch == "" || pr.BaseRef == defaultBranch {
		return
	}
	if ns := closingIssuesInBody(body, repo); len(ns) > 0 {
		pr.LinkedIssues, pr.LinkedFrom = ns, model.LinkedFromBody
	}
}
