package dormant

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

func config() *lang.Config {
	return &lang.Config{Pipelines: []*lang.Pipeline{
		{Name: "developer", HasTrigger: true, Dormant: true},
		{Name: "logger", HasTrigger: true},
		{Name: "child"},
	}}
}

func TestCommandAnswersAndRecords(t *testing.T) {
	cfg, st := config(), &model.State{}
	assert.Contains(t, Command(cfg, st, "", true), "name the pipeline: `/pipeline enable <pipeline>`")
	assert.Contains(t, Command(cfg, st, "nightly", true), "there is no pipeline nightly")
	assert.Contains(t, Command(cfg, st, "child", false), "`/pipeline disable`: pipeline child is a sub-pipeline")
	assert.Nil(t, st.Enabled)

	assert.Equal(t, "Pipeline developer enabled: its trigger starts it on this subject.", Command(cfg, st, "developer", true))
	assert.Equal(t, "Pipeline developer was enabled already.", Command(cfg, st, "developer", true))
	assert.Equal(t, map[string]bool{"developer": true}, st.Enabled)
	assert.True(t, Enabled(st, cfg.Pipeline("developer")))

	assert.Contains(t, Command(cfg, st, "logger", false), "Pipeline logger disabled")
	assert.False(t, Enabled(st, cfg.Pipeline("logger")))
	// Back to what the config says: nothing is kept for it.
	Command(cfg, st, "developer", false)
	Command(cfg, st, "logger", true)
	assert.Nil(t, st.Enabled)
}

func TestPlanSetTakesBooleans(t *testing.T) {
	cfg, st := config(), &model.State{}
	yes := lang.Value{Kind: lang.KindBool, Scalar: "true"}
	assert.Contains(t, PlanSet(cfg, st, "developer", yes, nil).Done, "developer enabled")
	assert.Contains(t, PlanSet(cfg, st, "gone", yes, nil).Err, `there is no pipeline "gone"`)
	assert.Contains(t, PlanSet(cfg, st, "logger", lang.Value{Kind: lang.KindInt, Scalar: "1"}, nil).Err, "not true or false")
	assert.Equal(t, map[string]bool{"developer": true}, st.Enabled)
}

func TestNewlyListsWhatMayStartNow(t *testing.T) {
	cfg := config()
	assert.Equal(t, []string{"developer"}, Newly(cfg, nil, map[string]bool{"developer": true}))
	assert.Equal(t, []string{"logger"}, Newly(cfg, map[string]bool{"logger": false}, nil), "back to its own enabled: true")
	assert.Empty(t, Newly(cfg, map[string]bool{"developer": true}, map[string]bool{"developer": true}))
	assert.Empty(t, Newly(cfg, nil, map[string]bool{"logger": false}))
}
