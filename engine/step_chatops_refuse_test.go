package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A flood of refused commands costs one reply per person while the runs stand still;
// once the runs move, the next refusal is replied to again.
func TestRefusalsRepliedOncePerPersonUntilTheRunsMove(t *testing.T) {
	cfg := escalateConfig(t)
	f := humanFacts()
	f.PR.Labels = []string{"broken"}
	f.People.Permissions = map[string]string{"alice": "write", "rita": "read", "eve": "read"}
	res := Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, model.RunEscalated, res.State.Runs[0].Status)

	var comments []model.IssueComment
	replies := func(at int, add ...model.IssueComment) []string {
		comments = append(comments, add...)
		f.PR.Comments = comments
		res = Step(cfg, res.State, model.Input{Key: fmt.Sprint("k", at), Event: "issue_comment.created"}, f, t0.Add(time.Duration(at)*time.Minute))
		var out []string
		for _, e := range res.Effects {
			out = append(out, e.Key)
		}
		return out
	}
	var flood []model.IssueComment
	for id := int64(1); id <= 50; id++ {
		flood = append(flood, command(id, "rita", "/pipeline unblock"))
	}
	assert.Equal(t, []string{"chatops/1"}, replies(1, flood...), "fifty refusals, one reply")
	assert.Equal(t, int64(50), res.State.CommandsSeen, "all of them seen")
	assert.Empty(t, replies(2, command(51, "rita", "/pipeline skip")))
	assert.Empty(t, replies(3, command(52, "rita", "/pipeline nonsense")), "not a command either: refused, not replied to")
	assert.Equal(t, []string{"chatops/53"}, replies(4, command(53, "eve", "/pipeline unblock")), "another person gets their reply")
	require.Len(t, res.State.Refused, 2)

	// The runs move (alice unblocks): rita's next refusal is answered again.
	f.PR.Labels = nil
	replies(5, command(54, "alice", "/pipeline unblock"))
	require.Equal(t, "approval", res.State.Runs[0].Stage)
	assert.Equal(t, []string{"chatops/55"}, replies(6, command(55, "rita", "/pipeline approve")))
	assert.Empty(t, replies(7, command(56, "rita", "/pipeline approve")))
}

func TestRefusedIsBounded(t *testing.T) {
	cfg := escalateConfig(t)
	f := humanFacts()
	f.PR.Labels = []string{"broken"}
	res := Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.opened"}, f, t0)
	for id := int64(1); id <= model.MaxRefused+5; id++ {
		f.PR.Comments = append(f.PR.Comments, command(id, fmt.Sprintf("user%d", id), "/pipeline unblock"))
	}
	res = Step(cfg, res.State, model.Input{Key: "k1", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Len(t, res.Effects, model.MaxRefused+5, "one reply each")
	require.Len(t, res.State.Refused, model.MaxRefused)
	assert.Equal(t, fmt.Sprintf("user%d", model.MaxRefused+5), res.State.Refused[model.MaxRefused-1].Login, "the newest kept")
}
