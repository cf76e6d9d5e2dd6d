package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// BenchmarkStepParallelReport measures an agent's report to one branch of a parallel stage of
// three review branches, which the join does not decide yet.
func BenchmarkStepParallelReport(b *testing.B) {
	cfg := parallelConfig(b, lang.JoinAll, "sec", "perf", "docs")
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = settled(cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	st := settled(cfg, res, f, t0.Add(time.Minute)).State
	in := reportOn(st, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := Step(cfg, st, in, f, t0.Add(2*time.Minute)); !res.Changed {
			b.Fatal("the report changed nothing")
		}
	}
}

// BenchmarkStepSubPipelineWaiting measures an event on a PR whose run waits for its child
// run (a sub-pipeline at an agent stage): both runs are evaluated.
func BenchmarkStepSubPipelineWaiting(b *testing.B) {
	cfg := subConfig(b)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	st := settled(cfg, res, f, t0).State
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute)); res.Changed {
			b.Fatal("an event that changes nothing changed the state")
		}
	}
}

// settled performs every effect of res successfully and returns the settled result.
func settled(cfg *lang.Config, res model.Result, f *model.Facts, at time.Time) model.Result {
	var outs []model.Outcome
	for _, e := range res.Effects {
		outs = append(outs, model.Outcome{Key: e.Key})
	}
	return Settle(cfg, res.State, model.Input{}, outs, f, at)
}
