package state

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sums of the files the action wrote stay few in the subject's file however many runs
// were archived: past maxSums they move to a sums file that the file vouches for, each
// sums file vouching for the one before it, and a trail still verifies every one of them.
func TestSumsRollIntoAChain(t *testing.T) {
	tail := &AuditTail{Sums: map[string]string{}}
	parts := map[string]string{}
	want := map[string]string{}
	for i := 1; i <= 3*maxSums; i++ {
		archive := ArchiveFile("pr-7.json", fmt.Sprintf("a/7/%d", i))
		text := fmt.Sprintf("run %d\n", i)
		next := withSums(tail, []FileChange{{Path: archive, Text: text}})
		want[archive] = textSum(text)
		roll, err := rollSums("pr-7.json", next)
		require.NoError(t, err)
		if roll != nil {
			parts[roll.Path] = roll.Text
		}
		tail = next
		assert.LessOrEqual(t, len(tail.Sums), maxSums, "after archive %d", i)
	}
	require.Len(t, parts, 2)
	assert.Contains(t, parts, "audit/pr-7/sums-0002.json")
	sums := vouchedSums(tail, parts)
	for p, sum := range want {
		assert.Equal(t, sum, sums[p], "%s is vouched for down the chain", p)
	}
	assert.Empty(t, vouched(ArchiveFile("pr-7.json", "a/7/1"), "run 1\n", sums, ""))

	// A sums file changed by someone who may push vouches for nothing, nor for those before it.
	parts["audit/pr-7/sums-0002.json"] = strings.Replace(parts["audit/pr-7/sums-0002.json"], "{", `{"archive/pr-7/forged.7.1.json": "00",`, 1)
	sums = vouchedSums(tail, parts)
	assert.Empty(t, sums[ArchiveFile("pr-7.json", "a/7/1")])
	assert.Empty(t, sums["archive/pr-7/forged.7.1.json"])
	assert.Contains(t, vouched(ArchiveFile("pr-7.json", "a/7/1"), "run 1\n", sums, ""), "records no SHA-256")
}
