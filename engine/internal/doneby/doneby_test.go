package doneby

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

func TestClosingOwnerRoot(t *testing.T) {
	runs := []*model.Run{
		{ID: "ship/7/1"},
		{ID: "ship/7/10"},
		{ID: "release/7/1", Parent: "ship/7/1/release"},
		{ID: "deep/7/1", Parent: "release/7/1/inner"},
	}
	assert.True(t, Closing("ship/7/1/merge/1/merge_pr"))
	assert.True(t, Closing("issue/12/1/on_complete/1/close_issue"))
	assert.False(t, Closing("ship/7/1/label/1/add_label"))
	assert.False(t, Closing("ship/7/1/merge_pr/1/comment"), "a stage named merge_pr is no merge")

	assert.Equal(t, "ship/7/10", Owner(runs, "ship/7/10/merge/1/merge_pr").ID, "the longest id that prefixes the key")
	assert.Equal(t, "ship/7/1", Owner(runs, "ship/7/1/merge/1/merge_pr").ID)
	assert.Nil(t, Owner(runs, "other/7/1/merge/1/merge_pr"))

	assert.Equal(t, "ship/7/1", Root(runs, "deep/7/1"), "a grandchild's top-level run")
	assert.Equal(t, "ship/7/10", Root(runs, "ship/7/10"))
	assert.Equal(t, "gone/7/1", Root(runs, "gone/7/1"))
	loop := []*model.Run{{ID: "a/1/1", Parent: "b/1/1/s"}, {ID: "b/1/1", Parent: "a/1/1/s"}}
	assert.Contains(t, []string{"a/1/1", "b/1/1"}, Root(loop, "a/1/1"), "a loop of parents ends")
}

func TestNotedAndOther(t *testing.T) {
	runs := []*model.Run{{ID: "ship/7/1"}, {ID: "release/7/1", Parent: "ship/7/1/release"}, {ID: "lint/7/1"}}
	merged := &model.PullRequest{State: model.PRMerged}
	merge := model.Outcome{Key: "release/7/1/merge/1/merge_pr"}
	assert.Equal(t, "ship/7/1", Noted(runs, merged, []model.Outcome{merge}), "the top-level run of the child that merged")
	assert.Empty(t, Noted(runs, &model.PullRequest{State: model.PROpen}, []model.Outcome{merge}), "the subject is still open")
	assert.Empty(t, Noted(runs, merged, []model.Outcome{{Key: merge.Key, Err: "405"}}), "a refused merge")
	assert.Empty(t, Noted(runs, merged, []model.Outcome{{Key: merge.Key, Unknown: true}}), "an outcome not known")
	assert.Empty(t, Noted(runs, merged, []model.Outcome{{Key: "lint/7/1/l/1/add_label"}}), "not a closing effect")

	assert.Equal(t, "the pull request was merged by run ship/7/1 in this event; this run acts on it no more",
		Other("ship/7/1", runs[2], false, false, model.PRMerged))
	assert.Equal(t, "the issue was closed by run ship/7/1 in this event; this run acts on it no more",
		Other("ship/7/1", runs[2], false, true, model.PRClosed))
	assert.Empty(t, Other("ship/7/1", runs[0], false, false, model.PRMerged), "the run that did it")
	assert.Empty(t, Other("ship/7/1", runs[2], true, false, model.PRMerged), "a pipeline that starts on the closing")
	assert.Empty(t, Other("", runs[2], false, false, model.PRMerged))
	assert.Empty(t, Other("ship/7/1", &model.Run{ID: "x/7/1", Status: model.RunCompleted}, false, false, model.PRMerged), "a final run")
}
