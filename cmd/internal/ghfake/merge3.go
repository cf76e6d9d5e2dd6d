package ghfake

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/merge3"

// A pull request merges as git merges: its own changes (the head against the merge base of
// head and base) are applied to the base as it is now, so what the base changed since the
// head was cut survives; a file both sides changed differently is a conflict, and GitHub then
// reports the pull request CONFLICTING and refuses to merge it.

// mergeBase returns the newest commit that is an ancestor of both a and b (each its own
// ancestor), or "" when they share none. Commits are shared between a repository and its
// forks, so r's commits hold both sides. The caller holds s.mu.
func (r *repo) mergeBase(a, b string) string {
	ofA := r.ancestors(a)
	best := ""
	for sha := range r.ancestors(b) {
		if !ofA[sha] {
			continue
		}
		if best == "" || r.commits[sha].seq > r.commits[best].seq {
			best = sha
		}
	}
	return best
}

// ancestors returns sha and every commit reachable from it through parents.
func (r *repo) ancestors(sha string) map[string]bool {
	seen := map[string]bool{}
	stack := []string{sha}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := r.commits[x]
		if c == nil || seen[x] {
			continue
		}
		seen[x] = true
		stack = append(stack, c.parents...)
	}
	return seen
}

// filesAt returns the files of commit sha, or none for an unknown sha.
func (r *repo) filesAt(sha string) map[string]*blob {
	if c := r.commits[sha]; c != nil {
		return c.files
	}
	return nil
}

// blobKey is a file's content identity: its blob OID, "" for no file.
func blobKey(bl *blob) string {
	if bl == nil {
		return ""
	}
	return bl.oid
}

// mergedFiles returns the base branch's files with the pull request's changes applied, and
// the paths that conflict. The caller holds s.mu.
func mergedFiles(pr *issue) (map[string]*blob, []string) {
	base, head := pr.repo.branches[pr.base], pr.headRepository().branches[pr.head]
	if base == nil || head == nil {
		return nil, nil // a pull request whose branch is gone has nothing to merge
	}
	mb := pr.repo.mergeBase(base.head, head.head)
	return merge3.ThreeWay(pr.repo.filesAt(mb), base.files, head.files, blobKey)
}

// mergeableNow is the pull request's mergeable state as GitHub reports it: what was set on it
// (UNKNOWN, CONFLICTING), else CONFLICTING while its changes conflict with its base. The
// caller holds s.mu.
func mergeableNow(pr *issue) string {
	if pr.mergeable != "MERGEABLE" || pr.merged || pr.state != "open" {
		return pr.mergeable
	}
	if _, conflicts := mergedFiles(pr); len(conflicts) > 0 {
		return "CONFLICTING"
	}
	return "MERGEABLE"
}
