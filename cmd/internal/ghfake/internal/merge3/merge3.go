// Package merge3 merges file sets as git merges trees: the changes from a common ancestor to
// one side applied onto the other, with the paths both sides changed differently reported.
package merge3

import "sort"

// ThreeWay applies the changes from ancestor to theirs onto ours: a path theirs left as the
// ancestor had it keeps ours; a path ours left keeps theirs (a deletion deletes); a path both
// changed alike keeps that. key is a file's content identity ("" counts as no file). It
// returns the merged files and, sorted, the paths both sides changed differently (then the
// files are not to be used).
func ThreeWay[V any](ancestor, ours, theirs map[string]V, key func(V) string) (map[string]V, []string) {
	paths := map[string]bool{}
	for _, m := range []map[string]V{ancestor, ours, theirs} {
		for p := range m {
			paths[p] = true
		}
	}
	keyOf := func(m map[string]V, p string) string {
		v, ok := m[p]
		if !ok {
			return ""
		}
		return key(v)
	}
	out := make(map[string]V, len(ours))
	for p, v := range ours {
		out[p] = v
	}
	var conflicts []string
	for p := range paths {
		a, o, t := keyOf(ancestor, p), keyOf(ours, p), keyOf(theirs, p)
		switch {
		case t == a || t == o:
			// theirs changed nothing here, or changed it as ours did
		case o == a:
			if t == "" {
				delete(out, p)
			} else {
				out[p] = theirs[p]
			}
		default:
			conflicts = append(conflicts, p)
		}
	}
	sort.Strings(conflicts)
	return out, conflicts
}
