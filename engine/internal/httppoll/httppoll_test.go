package httppoll

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

func TestArm(t *testing.T) {
	now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	httpGate := &lang.Stage{ID: "g", Type: "gate", AnyOf: [][]lang.Condition{{{Check: "http"}}}}
	plain := &lang.Stage{ID: "g", Type: "gate", Conditions: []lang.Condition{{Check: "label_present"}}}

	sr := &model.StageRun{}
	Arm(plain, sr, now)
	assert.Empty(t, sr.Deadlines, "a gate without an http check is not polled")

	Arm(httpGate, sr, now)
	Arm(httpGate, sr, now.Add(time.Minute))
	assert.Equal(t, []model.Deadline{{Kind: Kind, At: now.Add(Interval)}}, sr.Deadlines, "one poll armed at a time")
}
