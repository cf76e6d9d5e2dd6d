package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulate prints the comments as a reader of the pull request sees them, without the
// action's hidden markers: a state comment that is still a placeholder (its binding edit
// failed) too.
func TestSimulatePrintsNoHiddenMarker(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main(t.Context(), []string{"testdata/scenarios/one-state-comment"}, &out, &errOut)
	require.Equal(t, 0, code, "%s\n%s", out.String(), errOut.String())
	assert.Contains(t, out.String(), "state comment on #7:")
	for _, l := range strings.Split(out.String(), "\n") {
		assert.NotContains(t, l, "<!-- pipeline-action:", "a hidden marker printed")
	}
}
