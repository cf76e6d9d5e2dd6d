package ghfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules only people can meet: GitHub's mergeStateStatus says BLOCKED (but for linear
// history, which only the method decides), the merge is refused (405) with GitHub's message
// until a person meets the rule, and then it merges.
func TestProtectionPeopleRules(t *testing.T) {
	ctx := t.Context()
	tests := []struct {
		name   string
		p      Protection
		setup  func(s *Server)
		state  string
		msg    string
		opts   *github.PullRequestOptions // the refused merge's
		lift   func(s *Server)
		merged *github.PullRequestOptions // the merge once lifted
	}{
		{name: "code owner", p: Protection{CodeOwnerReviews: true},
			setup: func(s *Server) {
				s.SetFile(testRepo, "main", ".github/CODEOWNERS", "# owners\n*  @acme/core\n/src/auth/ @carol @dave\n*.md @erin\n")
				s.Review(testRepo, 7, "alice", "approved", "") // not an owner
				s.Review(testRepo, 7, "mallory", "approved", "")
			},
			state: "BLOCKED", msg: "Waiting on code owner review from carol, dave.",
			lift: func(s *Server) { s.Review(testRepo, 7, "dave", "approved", "") }},
		{name: "code owner team", p: Protection{CodeOwnerReviews: true},
			setup: func(s *Server) { s.SetFile(testRepo, "main", "CODEOWNERS", "src/ @acme/core\n") },
			state: "BLOCKED", msg: "Waiting on code owner review from @acme/core.",
			lift: func(s *Server) { s.Review(testRepo, 7, "carol", "approved", "") }},
		{name: "code owners of other files", p: Protection{CodeOwnerReviews: true},
			setup: func(s *Server) {
				s.SetFile(testRepo, "main", "docs/CODEOWNERS", "/docs/ @carol\n*.md @carol\nauth/*.py @carol\n")
			},
			state: "CLEAN"},
		{name: "linear history", p: Protection{LinearHistory: true}, state: "CLEAN",
			msg: "Merge commits are not allowed on this branch.", merged: &github.PullRequestOptions{MergeMethod: "rebase"}},
		{name: "conversation", p: Protection{ConversationResolution: true},
			setup: func(s *Server) { s.ReviewWithConversation(testRepo, 7, "alice", "commented", "why?") },
			state: "BLOCKED", msg: "A conversation must be resolved before this pull request can be merged.",
			lift: func(s *Server) { assert.Equal(t, 1, s.ResolveConversations(testRepo, 7)) }},
		{name: "push restrictions", p: Protection{PushAllowances: []string{"alice", "acme/core"}},
			state: "BLOCKED", msg: "You're not authorized to push to this branch. Visit https://docs.github.com/articles/about-protected-branches for more information.",
			lift: func(s *Server) {
				s.SetProtection(testRepo, "main", Protection{PushAllowances: []string{"alice", BotLogin}})
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := widgets(t)
			s.AddUser("carol", "write")
			s.AddUser("dave", "write")
			s.AddTeam("acme/core", "carol")
			s.SetProtection(testRepo, "main", tt.p)
			if tt.setup != nil {
				tt.setup(s)
			}
			_, st := mergeState(t, s)
			assert.Equal(t, tt.state, st)
			c := client(t, s, s.BotToken())
			if tt.msg != "" {
				_, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", tt.opts)
				requireStatus(t, err, http.StatusMethodNotAllowed, tt.msg)
			}
			if tt.lift != nil {
				tt.lift(s)
				_, st = mergeState(t, s)
				assert.Equal(t, "CLEAN", st, "met")
			}
			_, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", tt.merged)
			require.NoError(t, err)
		})
	}
}
