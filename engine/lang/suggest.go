package lang

import "strings"

// Suggest returns the candidate closest to got, for a "did you mean" hint, or "" when
// none is close enough: at most two edits away for short names, a fifth of the length for
// longer ones, and never a whole rewrite; a prefix of three or more letters counts as close.
// Ties go to the earlier candidate. Its work is bounded (maxSuggestCells), so that a
// config with thousands of long names costs a hint less, not seconds per mistake.
func Suggest(got string, candidates []string) string {
	g := strings.ToLower(got)
	limit := max(2, len(g)/5)
	best, bestD := "", limit+1
	cells := maxSuggestCells
	var rows [2][]int
	for _, c := range candidates {
		if c == got {
			continue
		}
		lc := strings.ToLower(c)
		d := limit + 1
		if len(g) >= 3 && (strings.HasPrefix(lc, g) || strings.HasPrefix(g, lc)) {
			d = limit // "merge" for "merge_pr"
		}
		if diff := len(g) - len(lc); diff <= limit && -diff <= limit && cells > 0 {
			// a distance of at most limit needs lengths that close
			var used int
			d = min(d, levenshteinWithin(g, lc, min(bestD-1, limit), &rows, &used))
			cells -= used
		}
		if d < bestD && d < max(len(g), 1) {
			best, bestD = c, d
		}
	}
	return best
}

// maxSuggestCells bounds the cells of the edit-distance tables one suggest fills.
const maxSuggestCells = 200000

// levenshteinWithin returns the edit distance between a and b, counted in bytes, when it
// is at most k, and k+1 otherwise. It fills only the band of the table within k of the
// diagonal and stops when a row has nothing within k; used counts the cells it filled.
// rows are two rows of scratch, grown as needed.
func levenshteinWithin(a, b string, k int, rows *[2][]int, used *int) int {
	if k < 0 {
		return k + 1
	}
	if len(a) > 256 || len(b) > 256 || len(a)-len(b) > k || len(b)-len(a) > k {
		return k + 1 // too far apart; or not worth comparing, never "close"
	}
	const far = 1 << 30
	for r := range rows {
		if cap(rows[r]) < len(b)+1 {
			rows[r] = make([]int, len(b)+1, 257)
		}
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
		if j > k {
			prev[j] = far
		}
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		// only cells lo-1 to hi+1 of a row are read: set the two outside the band
		cur[lo-1] = far
		if lo == 1 && i <= k {
			cur[0] = i
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		best := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		*used += hi - lo + 1
		if best > k {
			return k + 1
		}
		prev, cur = cur, prev
	}
	if prev[len(b)] > k {
		return k + 1
	}
	return prev[len(b)]
}
