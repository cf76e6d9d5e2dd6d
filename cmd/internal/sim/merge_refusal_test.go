package sim

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRefusalsAreNotRetried: the examples of GitHub's merge rules make exactly the merge
// calls they need; a merge refused for a setting is asked for once, not on every later event.
func TestMergeRefusalsAreNotRetried(t *testing.T) {
	tests := []struct {
		dir   string
		total []string
	}{
		{"merge-queue-required", []string{"pulls/merge 2"}}, // one a pull request: the queue takes it from there
		{"merge-refused-settings", []string{"pulls/merge 1"}},
		{"merge-unknown-mergeability", []string{"pulls/merge 1"}},
		{"merge-behind-update", []string{"pulls/merge 2", "pulls/update-branch 1"}},
		// Rules only people can meet: refused once, and merged by /pipeline retry once met.
		{"testdata/scenarios/merge-refused-code-owners", []string{"pulls/merge 2"}},
		{"testdata/scenarios/merge-refused-conversation", []string{"pulls/merge 2"}},
		{"testdata/scenarios/merge-refused-linear-history", []string{"pulls/merge 1"}},
		{"testdata/scenarios/merge-refused-push-restrictions", []string{"pulls/merge 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := tt.dir
			if !strings.HasPrefix(dir, "testdata/") {
				dir = "../../../examples/" + dir
			}
			code, out, _ := simulate(t, dir, "--stats")
			require.Equal(t, 0, code, out)
			total := regexp.MustCompile(`(?m)^  total .*$`).FindString(out)
			require.NotEmpty(t, total, out)
			for _, s := range tt.total {
				assert.Regexp(t, regexp.QuoteMeta(s)+`(,|$)`, total)
			}
		})
	}
	// While GitHub computes mergeability, no merge is tried: the only one is the sweep's.
	_, out, _ := simulate(t, "../../../examples/merge-unknown-mergeability", "--stats")
	assert.Regexp(t, `(?m)^  step  5  advance .*pulls/merge 1`, out)
}
