package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
)

// BenchmarkStepWaitingGate measures one event on a PR whose run waits at a gate:
// the common case, paid on every event.
func BenchmarkStepWaitingGate(b *testing.B) {
	cfg := stepConfig()
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
	f := prFacts()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute))
		if res.Changed {
			b.Fatal("an event that changes nothing changed the state")
		}
	}
}

// BenchmarkStepToMerge measures the event that passes the gate and asks for the merge.
func BenchmarkStepToMerge(b *testing.B) {
	cfg := stepConfig()
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0).State
	f := prFacts("ok")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if res := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, f, t0); len(res.Effects) != 1 {
			b.Fatal("no merge effect")
		}
	}
}
