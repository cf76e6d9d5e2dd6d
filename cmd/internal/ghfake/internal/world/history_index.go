package world

// The histories History served, kept by commit, path and filter. A commit never changes, and
// nor does what its parents reach, so a history once walked holds for good. Down a line of
// single-parent commits, the walk from a commit is that commit (when it is listed) followed by
// the walk from its parent: a history asked for at a branch's new head costs the commits
// made since the last history asked for below them, not the whole history again.

// historyKey names a history: the commit it starts at, the path, and whether it filters by
// the path.
type historyKey struct {
	sha, dir string
	filter   bool
}

// histories are the histories served so far.
type histories map[historyKey][]any

// of is the history of c (History, dir trimmed): kept, or made of c's line of single-parent
// commits down to one whose history is kept or must be walked. The caller holds Mu.
func (h *histories) of(r *Repo, c *Commit, dir string, filter bool) []any {
	if *h == nil {
		*h = histories{}
	}
	var line []*Commit // c and the single-parent commits below it whose history is not kept
	x := c
	tail, ok := (*h)[historyKey{x.SHA, dir, filter}]
	for !ok {
		p := onlyParent(r, x)
		if p == nil {
			tail = r.walk(x, dir, filter)
			(*h)[historyKey{x.SHA, dir, filter}] = tail
			break
		}
		line = append(line, x)
		x = p
		tail, ok = (*h)[historyKey{x.SHA, dir, filter}]
	}
	if len(line) == 0 {
		return tail[:len(tail):len(tail)]
	}
	out := make([]any, 0, len(line)+len(tail))
	for _, y := range line {
		if !filter || FilesUnder(y.Files, dir) != FilesUnder(onlyParent(r, y).Files, dir) {
			out = append(out, y)
		}
	}
	out = append(out, tail...)
	if len(out) == 0 {
		out = nil // as the walk lists nothing
	}
	(*h)[historyKey{c.SHA, dir, filter}] = out
	return out[:len(out):len(out)]
}

// onlyParent is x's parent when it has exactly one and the repository holds it; nil otherwise
// (a root, a merge).
func onlyParent(r *Repo, x *Commit) *Commit {
	if len(x.Parents) != 1 {
		return nil
	}
	return r.Commits[x.Parents[0]]
}
