package sim

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// Scenarios of multi-PR runs (docs/scenarios.md): `repos: [acme/web]` adds other
// repositories (default branch main) beside `repo`; the steps open_pr, review, check and
// conflict take `repo:` to act in one of them. Those repositories do not run the action, so
// their events are not delivered: the run learns of them on its next event (on the issue, a
// report) or the sweep. The expectation `repos: {acme/web: {prs: {30: {merged: true}}}}`
// checks their pull requests (merged, closed, labels).

// repoExpect is what an expectation says of another repository's pull requests.
type repoExpect struct {
	PRs map[int]subjectExpect `yaml:"prs"`
}

// stepRepo is the repository a step acts in (repo, or the scenario's when ""), and whether
// the action runs there (here).
func (s *simulation) stepRepo(repo string) (string, bool, error) {
	if repo == "" || strings.EqualFold(repo, s.sc.Repo) {
		return s.sc.Repo, true, nil
	}
	for _, r := range s.sc.Repos {
		if strings.EqualFold(r, repo) {
			return r, false, nil
		}
	}
	return "", false, fmt.Errorf("repo %q is not %s nor one of repos %v", repo, s.sc.Repo, s.sc.Repos)
}

// elsewhere is what a step's label adds for a step in another repository.
func elsewhere(repo string, here bool) string {
	if here {
		return ""
	}
	return " in " + repo + " (it does not run the action: no event)"
}

// checkRepos checks the pull requests of other repositories.
func (s *simulation) checkRepos(report func(bool, string, string, string), repos map[string]repoExpect) {
	for _, name := range slices.Sorted(maps.Keys(repos)) {
		x := repos[name]
		repo, _, err := s.stepRepo(name)
		if err != nil {
			report(false, name, "a repository of the scenario", err.Error())
			continue
		}
		for _, n := range sortedInts(x.PRs) {
			want := x.PRs[n]
			if want.Comments != nil || len(want.CommentContains) > 0 || len(want.CommentsContain) > 0 {
				report(false, fmt.Sprintf("%s#%d", repo, n), "merged, closed or labels", "comment expectations, which only the scenario's repo takes")
				continue
			}
			var pr ghfake.PRView
			if !s.try(func() { pr = s.fake.PR(repo, n) }) {
				report(false, fmt.Sprintf("%s#%d", repo, n), "a pull request", "none")
				continue
			}
			prefixed := func(ok bool, what, w, found string) { report(ok, repo+what, w, found) }
			s.checkSubject(prefixed, n, want, pr.Merged, pr.State == "closed", pr.Labels)
		}
	}
}
