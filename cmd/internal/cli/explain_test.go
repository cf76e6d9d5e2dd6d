package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRunHelpNamesDryRun: run's usage names the input that makes it write nothing.
func TestRunHelpNamesDryRun(t *testing.T) {
	code, stdout, _ := mainOut("run", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "INPUT_DRY_RUN")
	assert.Contains(t, stdout, "pipeline-action explain")
}

// TestExplainUsageErrors: explain needs a repository and one subject, and takes no argument;
// each mistake is exit 2 with the usage, before anything is read.
func TestExplainUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--pr", "7"}, "no repository"},
		{[]string{"explain", "--repo", "acme/widgets"}, "give one of --pr N, --issue N"},
		{[]string{"explain", "--repo", "acme/widgets", "--pr", "7", "--issue", "8"}, "give one of --pr N, --issue N"},
		{[]string{"explain", "--repo", "acme/widgets", "--pr", "-1"}, "give one of --pr N, --issue N"},
		{[]string{"explain", "--repo", "acme/widgets", "--pr", "7", "extra"}, "takes no arguments"},
	} {
		code, _, stderr := mainOut(tc.args...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
		assert.Contains(t, stderr, "usage: pipeline-action explain", "%v", tc.args)
	}
}

// TestExplainWithoutToken: no token is exit 2, said so.
func TestExplainWithoutToken(t *testing.T) {
	code, _, stderr := mainOut("explain", "--repo", "acme/widgets", "--pr", "7")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no token")
}
