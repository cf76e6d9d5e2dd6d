package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/runtest"
)

// manyDoneConfig is n pipelines that a pull request's opening starts and that are done at once.
func manyDoneConfig(n int) string {
	var b strings.Builder
	b.WriteString("version: 1\npipelines:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  p%03d:\n    trigger: {event: pull_request.opened}\n    stages:\n"+
			"      - {id: check, type: gate, conditions: [{check: no_changes_requested}]}\n", i)
	}
	return b.String()
}

// Past 64 archived runs, the subject's file keeps their SHA-256 in a sums file it vouches
// for: audit still verifies every archive, and a sums file changed by someone who may push
// vouches for none.
func TestAuditVerifiesArchivesThroughSumsFiles(t *testing.T) {
	h := newHarness(t, manyDoneConfig(80))
	h.OpenPR7()
	files := h.Fake.BranchFiles("acme/widgets", "pipeline-action/state")
	sums, ok := files["audit/pr-7/sums-0001.json"]
	require.True(t, ok, "the sums moved to a sums file")
	archives := 0
	for p := range files {
		if strings.HasPrefix(p, "archive/pr-7/") {
			archives++
			assert.Contains(t, sums, `"`+p+`"`)
		}
	}
	require.Greater(t, archives, 64)
	assert.Less(t, strings.Count(files["pr-7.json"], "archive/pr-7/"), 64, "the subject's file keeps few sums")

	audit := func(args ...string) (int, string) {
		env := runtest.Command(h.Fake, h.Fake.Token("alice"))
		var out, errOut bytes.Buffer
		code := Main(append([]string{"audit"}, args...), nil, &out, &errOut, func(k string) string { return env[k] })
		return code, out.String() + errOut.String()
	}
	code, text := audit("--pr", "7", "--strict")
	require.Equal(t, 0, code, text)
	assert.NotContains(t, text, "UNVERIFIED")

	h.Fake.SetFile("acme/widgets", "pipeline-action/state", "audit/pr-7/sums-0001.json", strings.Replace(sums, "{", `{"archive/pr-7/x.7.1.json": "00",`, 1))
	code, text = audit("--pr", "7", "--strict")
	assert.Equal(t, 1, code, text)
	assert.Contains(t, text, "UNVERIFIED: archive/pr-7/p001.7.1.json: the subject's file records no SHA-256 of it")
}
