package world

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/merge3"

// A pull request merges as git merges: its own changes (the head against the merge base of
// head and base) are applied to the base as it is now, so what the base changed since the
// head was cut survives; a file both sides changed differently is a conflict, and GitHub then
// reports the pull request CONFLICTING and refuses to merge it.

// MergeBase returns the newest commit that is an ancestor of both a and b (each its own
// ancestor), or "" when they share none. Commits are shared between a repository and its
// forks, so r's commits hold both sides. The caller holds Mu.
func (r *Repo) MergeBase(a, b string) string {
	if r.Commits[a] == nil || r.Commits[b] == nil {
		return r.mergeBase(a, b)
	}
	// Two commits' ancestors never change: their merge base is found once.
	key := [2]string{a, b}
	if mb, ok := r.mergeBases[key]; ok {
		return mb
	}
	if r.mergeBases == nil {
		r.mergeBases = map[[2]string]string{}
	}
	r.mergeBases[key] = r.mergeBase(a, b)
	return r.mergeBases[key]
}

// mergeBase is MergeBase, found by walking both sides' ancestors.
func (r *Repo) mergeBase(a, b string) string {
	ofA := r.Ancestors(a)
	best := ""
	for sha := range r.Ancestors(b) {
		if !ofA[sha] {
			continue
		}
		if best == "" || r.Commits[sha].Seq > r.Commits[best].Seq {
			best = sha
		}
	}
	return best
}

// Ancestors returns sha and every commit reachable from it through parents.
func (r *Repo) Ancestors(sha string) map[string]bool {
	seen := map[string]bool{}
	stack := []string{sha}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := r.Commits[x]
		if c == nil || seen[x] {
			continue
		}
		seen[x] = true
		stack = append(stack, c.Parents...)
	}
	return seen
}

// FilesAt returns the files of commit sha, or none for an unknown sha.
func (r *Repo) FilesAt(sha string) map[string]*Blob {
	if c := r.Commits[sha]; c != nil {
		return c.Files
	}
	return nil
}

// BlobKey is a file's content identity: its blob OID, "" for no file.
func BlobKey(bl *Blob) string {
	if bl == nil {
		return ""
	}
	return bl.OID
}

// MergedFiles returns the base branch's files with the pull request's changes applied, and
// the paths that conflict. The caller holds Mu.
func MergedFiles(pr *Issue) (map[string]*Blob, []string) {
	base, head := pr.Repo.Branches[pr.Base], pr.HeadRepository().Branches[pr.Head]
	if base == nil || head == nil {
		return nil, nil // a pull request whose branch is gone has nothing to merge
	}
	mb := pr.Repo.MergeBase(base.Head, head.Head)
	return merge3.ThreeWay(pr.Repo.FilesAt(mb), base.Files, head.Files, BlobKey)
}

// MergeableNow is the pull request's mergeable state as GitHub reports it: what was set on it
// (UNKNOWN, CONFLICTING), else CONFLICTING while its changes conflict with its base. The
// caller holds Mu.
func MergeableNow(pr *Issue) string {
	if pr.Mergeable != "MERGEABLE" || pr.Merged || pr.State != "open" {
		return pr.Mergeable
	}
	if _, conflicts := MergedFiles(pr); len(conflicts) > 0 {
		return "CONFLICTING"
	}
	return "MERGEABLE"
}
