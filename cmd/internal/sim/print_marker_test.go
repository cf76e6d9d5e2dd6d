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

// simulate shows every comment the action posts, not only the state comment: its notices,
// reminders and replies to commands, once each, without their hidden markers.
func TestSimulateShowsEveryCommentOfTheAction(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main(t.Context(), []string{"../../../examples/human-timeout"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	got := out.String()
	assert.Contains(t, got, "   comment by the action on #7:\n   ┊ PR #7 ready for human review\n")
	assert.Equal(t, 2, strings.Count(got, "┊ @alice @acme/maintainers PR #7 still awaiting approval"), "each reminder once")
	assert.Contains(t, got, "┊ @bob Run review/7/1: approval recorded")
	assert.NotContains(t, got, "┊ <!-- pipeline-action:effect")
}
