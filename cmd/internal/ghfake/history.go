package ghfake

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// history lists the commits of c's history, newest first, as `git log` does and GitHub's
// Commit.history serves it. With a path (filter), only the commits that change what lies at
// or under path are listed, with git's default history simplification: a commit is listed
// when it differs there from each of its parents; a merge that is the same there as one of
// its parents is followed through that parent alone (the first such), so a pull request
// merged with a merge commit brings the commits of its branch that changed the path into the
// history, and a side branch that changed nothing there leaves none. The caller holds s.mu.
func (r *repo) history(c *commit, dir string, filter bool) []any {
	dir = strings.Trim(dir, "/")
	at := func(x *commit) string { return filesUnder(x.files, dir) }
	seen := map[string]bool{c.sha: true}
	queue := []*commit{c}
	var out []any
	for len(queue) > 0 {
		// git walks by commit date, newest first; the later made of two with the same date first.
		sort.Slice(queue, func(i, j int) bool {
			if !queue[i].date.Equal(queue[j].date) {
				return queue[i].date.After(queue[j].date)
			}
			return queue[i].seq > queue[j].seq
		})
		x := queue[0]
		queue = queue[1:]
		var parents []*commit
		for _, sha := range x.parents {
			if p := r.commits[sha]; p != nil {
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
					listed, follow = false, []*commit{p}
					break
				}
			}
		}
		if listed {
			out = append(out, x)
		}
		for _, p := range follow {
			if !seen[p.sha] {
				seen[p.sha] = true
				queue = append(queue, p)
			}
		}
	}
	return out
}

// filesUnder describes the files at or under dir ("" for all) in files: equal for two commits
// exactly when git sees no change there.
func filesUnder(files map[string]*blob, dir string) string {
	var lines []string
	for p, bl := range files {
		if dir == "" || p == dir || strings.HasPrefix(p, dir+"/") {
			lines = append(lines, p+"\x00"+bl.oid)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// fileAt is Commit.file: the tree entry at path in c, a file (blob) or a directory (tree); nil
// when there is none. The caller holds s.mu.
func (r *repo) fileAt(c *commit, p string) any {
	if p == "" || p != strings.Trim(p, "/") {
		return nil
	}
	if bl := c.files[p]; bl != nil {
		return treeEntry{name: path.Base(p), path: p, obj: bl}
	}
	if t := r.treeAt(c.files, p); t != nil {
		return treeEntry{name: path.Base(p), path: p, obj: t}
	}
	return nil
}

func historyResolvers() {
	on("Commit", map[string]resolver{
		"history": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*commit)
			for _, unsupported := range []string{"author", "since", "until"} {
				if a[unsupported] != nil {
					return nil, fmt.Errorf("ghfake: Commit.history does not implement the %s argument", unsupported)
				}
			}
			dir, filter := a["path"].(string)
			return paginate("history", c.repo.history(c, dir, filter), a)
		},
		"file": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*commit)
			return c.repo.fileAt(c, strArg(a, "path")), nil
		},
		"parents": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*commit)
			var items []any
			for _, sha := range c.parents {
				if pc := c.repo.commits[sha]; pc != nil {
					items = append(items, pc)
				}
			}
			return paginate("parents", items, a)
		},
	})
}
