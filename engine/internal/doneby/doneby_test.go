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
