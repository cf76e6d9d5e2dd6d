package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

// A new run's number: one more than the highest the state knows, and at least one more
// than the whole minutes since GitHub created the subject.
func TestNextRunNumber(t *testing.T) {
	for _, tc := range []struct {
		name    string
		created time.Time
		now     time.Time
		known   []string
		want    int
	}{
		{"the first run, as the pull request opens", t0, t0.Add(5 * time.Second), nil, 1},
		{"within the first minute", t0, t0.Add(59 * time.Second), nil, 1},
		{"a minute on", t0, t0.Add(time.Minute), nil, 2},
		{"a day on, the state lost", t0, t0.Add(24 * time.Hour), nil, 1441},
		{"a day on, after run 1", t0, t0.Add(24 * time.Hour), []string{"p/7/1"}, 1441},
		{"the state knows a higher number", t0, t0.Add(time.Minute), []string{"p/7/1", "p/7/9"}, 10},
		{"a clock behind GitHub's", t0, t0.Add(-time.Minute), []string{"p/7/3"}, 4},
		{"no creation time", time.Time{}, t0, []string{"p/7/2"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := prFacts()
			f.PR.CreatedAt = tc.created
			st := &model.State{}
			for _, id := range tc.known {
				st.Past = append(st.Past, model.PastRun{ID: id, Pipeline: "p"})
			}
			e := newEval(&lang.Config{}, st, f, tc.now, model.Input{})
			assert.Equal(t, tc.want, e.NextRunNumber("p"))
		})
	}
}
