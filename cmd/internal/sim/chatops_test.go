package sim

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// playDir plays the scenario of a directory under testdata/scenarios and returns it.
func playDir(t *testing.T, name string) *simulation {
	t.Helper()
	return playPassing(t, filepath.Join("testdata", "scenarios", name, "scenario.yaml"), "")
}

// The replies to commands: one line each, saying why; the status; nothing for the
// redelivered status command; and what each reminder and the on_enter message say.
func TestChatOpsReplies(t *testing.T) {
	sim := playDir(t, "escalate-chatops")
	var replies []string
	for _, c := range sim.fake.Comments(sim.sc.Repo, 7) {
		if c.Author == ghfake.BotLogin && strings.HasPrefix(c.Body, "@") {
			replies = append(replies, strings.SplitN(c.Body, "\n", 2)[0])
		}
	}
	assert.Equal(t, []string{
		"@rita `/pipeline unblock` refused: it needs write permission on this repository, and @rita's is read. Nothing was changed.",
		"@bob `/pipeline unblock` refused: only members of maintainers may use commands. Nothing was changed.",
		"@alice Run auto-merge/7/1 is escalated at ready: gate failed: check \"test\" failed.",
	}, replies)

	sim = playDir(t, "human-reminders-chatops")
	var bodies []string
	for _, c := range sim.fake.Comments(sim.sc.Repo, 7) {
		if c.Author == ghfake.BotLogin && !strings.Contains(c.Body, "### pipeline-action") {
			bodies = append(bodies, strings.SplitN(c.Body, "\n", 2)[0])
		}
	}
	assert.Equal(t, []string{
		"PR #7 is ready for a maintainer's review",
		"@alice @acme/maintainers still waiting for a maintainer's approval",
		"@alice @acme/maintainers still waiting for a maintainer's approval",
		"@rita `/pipeline approve` refused: it needs write permission on this repository, and @rita's is read. Nothing was changed.",
	}, bodies)
	assert.Equal(t, []string{"alice", "team:maintainers"}, sim.fake.PR(sim.sc.Repo, 7).Requested)
}
