package world

import (
	"path"
	"sort"
	"strings"
)

// History lists the commits of c's history, newest first, as `git log` does and GitHub's
// Commit.history serves it. With a path (filter), only the commits that change what lies at
// or under path are listed, with git's default history simplification: a commit is listed
// when it differs there from each of its parents; a merge that is the same there as one of
// its parents is followed through that parent alone (the first such), so a pull request
// merged with a merge commit brings the commits of its branch that changed the path into the
// history, and a side branch that changed nothing there leaves none. The caller holds Mu.
func (r *Repo) History(c *Commit, dir string, filter bool) []any {
	return r.histories.of(r, c, strings.Trim(dir, "/"), filter)
}

// walk is History's walk from c, commit by commit; dir is trimmed.
func (r *Repo) walk(c *Commit, dir string, filter bool) []any {
	at := func(x *Commit) string { return FilesUnder(x.Files, dir) }
	seen := map[string]bool{c.SHA: true}
	queue := []*Commit{c}
	var out []any
	for len(queue) > 0 {
		// git walks by commit date, newest first; the later made of two with the same date first.
		sort.Slice(queue, func(i, j int) bool {
			if !queue[i].Date.Equal(queue[j].Date) {
				return queue[i].Date.After(queue[j].Date)
			}
			return queue[i].Seq > queue[j].Seq
		})
		x := queue[0]
		queue = queue[1:]
		var parents []*Commit
		for _, sha := range x.Parents {
			if p := r.Commits[sha]; p != nil {
				parents = append(parents, p)
			}
		}
		listed, follow := true, parents
		if filter {
			here := at(x)
			if len(parents) == 0 {
				listed = here != "" // a root commit lists what it adds
			}
			for _, p := range parents {
				if at(p) == here {
					listed, follow = false, []*Commit{p}
					break
				}
			}
		}
		if listed {
			out = append(out, x)
		}
		for _, p := range follow {
			if !seen[p.SHA] {
				seen[p.SHA] = true
				queue = append(queue, p)
			}
		}
	}
	return out
}

// FilesUnder describes the files at or under dir ("" for all) in files: equal for two commits
// exactly when git sees no change there.
func FilesUnder(files map[string]*Blob, dir string) string {
	var lines []string
	for p, bl := range files {
		if dir == "" || p == dir || strings.HasPrefix(p, dir+"/") {
			lines = append(lines, p+"\x00"+bl.OID)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// FileAt is Commit.file: the tree entry at path in c, a file (blob) or a directory (tree); nil
// when there is none. The caller holds Mu.
func (r *Repo) FileAt(c *Commit, p string) any {
	if p == "" || p != strings.Trim(p, "/") {
		return nil
	}
	if bl := c.Files[p]; bl != nil {
		return TreeEntry{Name: path.Base(p), Path: p, Obj: bl}
	}
	if t := r.TreeAt(c.Files, p); t != nil {
		return TreeEntry{Name: path.Base(p), Path: p, Obj: t}
	}
	return nil
}
