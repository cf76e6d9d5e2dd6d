package state

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

func TestRenderFollowers(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#9", Followers: []model.Follower{
		{Issue: 4, Run: "feature/4/1"},
		{Issue: 5, Run: "x/5/1`<img src=x>@mallory"}, // not a run id: shown without it
		{Issue: 0, Run: "feature/0/1"},               // no issue: not shown
	}}
	out := Render(nil, st)
	assert.Contains(t, out, "Followed by run `feature/4/1` of #4: its state is on the issue.")
	assert.Contains(t, out, "Followed by a run of #5: its state is on the issue.")
	assert.NotContains(t, out, "mallory")
	assert.NotContains(t, out, "<img")
	assert.NotContains(t, out, "#0")
	assert.NotContains(t, out, "No pipeline has run here yet")
	assert.Equal(t, 2, strings.Count(out, "Followed by"))
}

// TestRenderFollowersOfAnotherRepository: a multi-PR run of another repository is shown as
// owner/name#N; a repository that is not owner/name is not shown at all.
func TestRenderFollowersOfAnotherRepository(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/web#30", Followers: []model.Follower{
		{Issue: 4, Run: "xr/4/1", Repo: "acme/widgets"},
		{Issue: 5, Run: "xr/5/1", Repo: "acme/x <img src=x>"},
	}}
	out := Render(nil, st)
	assert.Contains(t, out, "Followed by run `xr/4/1` of acme/widgets#4: its state is on the issue.")
	assert.NotContains(t, out, "<img")
	assert.Equal(t, 1, strings.Count(out, "Followed by"))
}
