package ghfake

import (
	"encoding/json"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCausedSince: what the action's token changes through the API comes back as the events
// GitHub sends for it, in order per subject; what others did before the mark does not.
func TestCausedSince(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 8, Author: "dev"})
	s.LabelAs(testRepo, 7, "wip", true, "dev") // before the mark: not the action's
	m := s.Mark(testRepo)
	c := client(t, s, s.BotToken())
	_, _, err := c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{"ready"})
	require.NoError(t, err)
	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "wip")
	require.NoError(t, err)
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, &github.IssueComment{Body: github.String("hello")})
	require.NoError(t, err)
	_, _, err = c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	require.NoError(t, err)
	_, _, err = c.Issues.Edit(ctx, "acme", "widgets", 8, &github.IssueRequest{State: github.String("closed")})
	require.NoError(t, err)
	_, _, err = c.Issues.Create(ctx, "acme", "widgets", &github.IssueRequest{Title: github.String("follow up")})
	require.NoError(t, err)

	var got []string
	for _, ev := range s.CausedSince(m, BotLogin) {
		var p struct {
			Action      string
			Sender      struct{ Login string }
			Label       *struct{ Name string }
			PullRequest *struct{ Merged bool } `json:"pull_request"`
		}
		require.NoError(t, json.Unmarshal(ev.Payload, &p))
		assert.Equal(t, BotLogin, p.Sender.Login)
		name := ev.Name + "." + ev.Action
		if p.Label != nil {
			name += " " + p.Label.Name
		}
		if ev.Action == "closed" && p.PullRequest != nil && p.PullRequest.Merged {
			name += " merged"
		}
		got = append(got, name)
	}
	assert.Equal(t, []string{
		"pull_request.labeled ready", "pull_request.unlabeled wip", "issue_comment.created", "pull_request.closed merged",
		"issues.closed",
		"issues.opened",
		"push.", // the merge's commit on main
	}, got)
	assert.Empty(t, s.CausedSince(s.Mark(testRepo), BotLogin), "nothing since a new mark")
	assert.Empty(t, s.CausedSince(m, "dev"), "dev changed nothing since the mark")

	// A close by someone else is theirs.
	m = s.Mark(testRepo)
	s.OpenPR(testRepo, PROptions{Number: 20, Author: "dev"})
	s.ClosePR(testRepo, 20)
	assert.Empty(t, s.CausedSince(m, BotLogin))
}
