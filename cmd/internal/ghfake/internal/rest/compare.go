package rest

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// reposCompare: https://docs.github.com/rest/commits/commits#compare-two-commits
// {basehead} is BASE...HEAD, each a commit SHA, a branch, or owner:branch of a fork. ahead_by
// counts the commits of HEAD that BASE does not hold, behind_by those of BASE that HEAD does
// not; commits lists HEAD's (oldest first). Files are not listed.
func reposCompare(s *Env, c *restCtx) (int, any) {
	base, head, ok := strings.Cut(c.params["basehead"], "...")
	if !ok {
		return http.StatusNotFound, NotFound()
	}
	b, h := s.ResolveCommit(c.repo, base), s.ResolveCommit(c.repo, head)
	if b == nil || h == nil {
		return http.StatusNotFound, NotFound()
	}
	inBase, inHead := ancestors(c.repo, b.SHA), ancestors(c.repo, h.SHA)
	var ahead []any
	behind := 0
	for sha := range inBase {
		if !inHead[sha] {
			behind++
		}
	}
	var aheadCommits []*world.Commit
	for sha := range inHead {
		if !inBase[sha] {
			aheadCommits = append(aheadCommits, c.repo.Commits[sha])
		}
	}
	sortCommits(aheadCommits)
	for _, cm := range aheadCommits {
		ahead = append(ahead, s.CompareCommitJSON(c.repo, cm))
	}
	status := "identical"
	switch {
	case len(ahead) > 0 && behind > 0:
		status = "diverged"
	case len(ahead) > 0:
		status = "ahead"
	case behind > 0:
		status = "behind"
	}
	mergeBase := b
	for _, cm := range newestFirst(c.repo, inBase) {
		if inHead[cm.SHA] {
			mergeBase = cm
			break
		}
	}
	fn := c.repo.FullName()
	if ahead == nil {
		ahead = []any{}
	}
	return http.StatusOK, shapes.Obj{
		"url":               s.APIURL("/repos/%s/compare/%s...%s", fn, base, head),
		"html_url":          fmt.Sprintf("%s/%s/compare/%s...%s", shapes.HTMLBase, fn, base, head),
		"permalink_url":     fmt.Sprintf("%s/%s/compare/%s...%s", shapes.HTMLBase, fn, b.SHA, h.SHA),
		"diff_url":          fmt.Sprintf("%s/%s/compare/%s...%s.diff", shapes.HTMLBase, fn, base, head),
		"patch_url":         fmt.Sprintf("%s/%s/compare/%s...%s.patch", shapes.HTMLBase, fn, base, head),
		"base_commit":       s.CompareCommitJSON(c.repo, b),
		"merge_base_commit": s.CompareCommitJSON(c.repo, mergeBase),
		"status":            status, "ahead_by": len(ahead), "behind_by": behind, "total_commits": len(ahead),
		"commits": ahead, "files": []any{},
	}
}

// ancestors returns sha and every commit it descends from.
func ancestors(r *world.Repo, sha string) map[string]bool {
	seen := map[string]bool{}
	for queue := []string{sha}; len(queue) > 0; queue = queue[1:] {
		cm := r.Commits[queue[0]]
		if cm == nil || seen[cm.SHA] {
			continue
		}
		seen[cm.SHA] = true
		queue = append(queue, cm.Parents...)
	}
	return seen
}

// newestFirst lists the commits of set, newest first.
func newestFirst(r *world.Repo, set map[string]bool) []*world.Commit {
	var out []*world.Commit
	for sha := range set {
		out = append(out, r.Commits[sha])
	}
	sortCommits(out)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// sortCommits orders commits oldest first.
func sortCommits(cs []*world.Commit) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Seq < cs[j-1].Seq; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
