package lang

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
)

// levenshteinFull is the whole-table edit distance levenshteinWithin must agree with.
func levenshteinFull(a, b string) int {
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

func TestLevenshteinWithin(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	word := func() string {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = "abc"[r.Intn(3)]
		}
		return string(b)
	}
	var rows [2][]int // shared, as suggest shares them between candidates
	for range 100000 {
		a, b, k := word(), word(), r.Intn(6)
		want := min(levenshteinFull(a, b), k+1)
		var used int
		if got := levenshteinWithin(a, b, k, &rows, &used); got != want {
			t.Fatalf("levenshteinWithin(%q, %q, %d) = %d, want %d", a, b, k, got, want)
		}
		assert.LessOrEqual(t, used, (len(a)+1)*(2*k+1))
	}
}

func TestSuggest(t *testing.T) {
	assert.Equal(t, "pull_request.opened", Suggest("pull_request.open", []string{"issues.opened", "pull_request.opened"}))
	assert.Equal(t, "merge_pr", Suggest("merge", []string{"add_label", "merge_pr"}))
	assert.Equal(t, "", Suggest("xyz", []string{"merge_pr"}))
	assert.Equal(t, "ab", Suggest("AB", []string{"ab"}), "case is ignored")

	// Thousands of names of one length, each a few edits from the others: the hint is
	// still found when it is among the first names compared, and the work is bounded.
	var many []string
	for i := range 20000 {
		many = append(many, fmt.Sprintf("stage_number_%06d", i))
	}
	assert.Equal(t, "stage_number_000000", Suggest("xtage_number_000000", many))
}
