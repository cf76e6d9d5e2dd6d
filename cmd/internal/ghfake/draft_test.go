package ghfake

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetDraft: converting to a draft and marking ready for review change the flag the
// client's facts query reads, each records its timeline event there, and GitHub's refusals of
// a change that changes nothing or of a closed pull request's hold.
func TestSetDraft(t *testing.T) {
	s := widgets(t)
	_, err := s.SetDraft(testRepo, 7, false, "")
	require.ErrorContains(t, err, "ready for review already")

	ev, err := s.SetDraft(testRepo, 7, true, "alice")
	require.NoError(t, err)
	assert.Equal(t, [2]string{"pull_request", "converted_to_draft"}, [2]string{ev.Name, ev.Action})
	_, err = s.SetDraft(testRepo, 7, true, "")
	require.ErrorContains(t, err, "a draft already")

	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})
	pr := field(t, play(t, gh, adapterQuery("facts"), subjectVars("pr", 7, "index/03.json")), "Repository.PullRequest")
	assert.Equal(t, true, field(t, pr, "IsDraft"))
	require.Len(t, field(t, pr, "TimelineItems.Nodes"), 2, "the label it was opened with, then the conversion")
	assert.Equal(t, "ConvertToDraftEvent", field(t, pr, "TimelineItems.Nodes[1].Typename"))

	ev, err = s.SetDraft(testRepo, 7, false, "")
	require.NoError(t, err)
	assert.Equal(t, "ready_for_review", ev.Action)
	var p struct{ Sender struct{ Login string } }
	require.NoError(t, json.Unmarshal(ev.Payload, &p))
	assert.Equal(t, "dev", p.Sender.Login, "the author by default")
	pr = field(t, play(t, gh, adapterQuery("facts"), subjectVars("pr", 7, "index/03.json")), "Repository.PullRequest")
	assert.Equal(t, false, field(t, pr, "IsDraft"))
	assert.Equal(t, "ReadyForReviewEvent", field(t, pr, "TimelineItems.Nodes[2].Typename"))

	s.ClosePR(testRepo, 7)
	_, err = s.SetDraft(testRepo, 7, true, "")
	require.ErrorContains(t, err, "is closed")
}
