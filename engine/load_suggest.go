package engine

import "strings"

// suggest returns the candidate closest to got, for a "did you mean" hint, or "" when
// none is close enough: at most two edits away for short names, a fifth of the length for
// longer ones, and never a whole rewrite; a prefix of three or more letters counts as close.
// Ties go to the earlier candidate.
func suggest(got string, candidates []string) string {
	g := strings.ToLower(got)
	limit := max(2, len(g)/5)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == got {
			continue
		}
		lc := strings.ToLower(c)
		d := levenshtein(g, lc)
		if len(g) >= 3 && (strings.HasPrefix(lc, g) || strings.HasPrefix(g, lc)) {
			d = min(d, limit) // "merge" for "merge_pr"
		}
		if d < bestD && d < max(len(g), 1) {
			best, bestD = c, d
		}
	}
	return best
}

// levenshtein returns the edit distance between a and b, counted in bytes.
func levenshtein(a, b string) int {
	if len(a) > 256 || len(b) > 256 {
		return max(len(a), len(b)) // not worth comparing; never "close"
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
