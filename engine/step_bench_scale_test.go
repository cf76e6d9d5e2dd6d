package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Benchmarks of pipelines with many stages, branches and children: what one event costs
// must not grow with the stages a run already passed.

// gatesConfig is a pipeline of n gates, each needing label "ok" but the last, which needs
// label last, and then a merge.
func gatesConfig(n int, last string) *lang.Config {
	p := &lang.Pipeline{Name: "many", Trigger: lang.Trigger{Event: "pull_request.opened"}}
	for i := 1; i <= n; i++ {
		label := "ok"
		if i == n {
			label = last
		}
		next := fmt.Sprintf("g%d", i+1)
		if i == n {
			next = "merge"
		}
		p.Stages = append(p.Stages, &lang.Stage{ID: fmt.Sprintf("g%d", i), Type: lang.StageGate, OnPass: next,
			Conditions: []lang.Condition{{Check: "label", Eval: labelCheck(label)}}})
	}
	p.Stages = append(p.Stages, &lang.Stage{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete})
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{p}}
}

// benchWaitingAtGate measures an event that changes nothing on a run waiting at gate
// `at` of a pipeline of 100 gates: the gates before it passed.
func benchWaitingAtGate(b *testing.B, at int) { benchWaitingAtGateOf(b, at, 100) }

// BenchmarkStepWaitingAtGate1Of10 and BenchmarkStepWaitingAtGate1Of1000 measure an event
// on a run waiting at the first gate of 10 and of 1,000: the cost should not grow with the
// pipeline.
func BenchmarkStepWaitingAtGate1Of10(b *testing.B)   { benchWaitingAtGateOf(b, 1, 10) }
func BenchmarkStepWaitingAtGate1Of1000(b *testing.B) { benchWaitingAtGateOf(b, 1, 1000) }

func benchWaitingAtGateOf(b *testing.B, at, n int) {
	cfg := gatesConfig(n, "done")
	labels := []string{"ok"}
	if at == 1 {
		labels = nil
	}
	f := prFacts(labels...)
	st := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0).State
	if got, want := st.Runs[0].Stage, fmt.Sprintf("g%d", at); got != want {
		b.Fatalf("the run waits at %s, not %s", got, want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute)); res.Changed {
			b.Fatal("an event that changes nothing changed the state")
		}
	}
}

// BenchmarkStepWaitingAtGate1Of100 measures an event on a run waiting at the first of
// 100 gates.
func BenchmarkStepWaitingAtGate1Of100(b *testing.B) { benchWaitingAtGate(b, 1) }

// BenchmarkStepWaitingAtGate100Of100 measures an event on a run waiting at the last of
// 100 gates, the 99 before it passed: it should cost what waiting at the first costs.
func BenchmarkStepWaitingAtGate100Of100(b *testing.B) { benchWaitingAtGate(b, 100) }

// benchGatesHold measures the event on which n gates all hold: the run passes them all
// and the merge guard checks them again before the merge.
func benchGatesHold(b *testing.B, n int) {
	cfg := gatesConfig(n, "ok")
	f := prFacts("ok")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
		if len(res.Effects) != 1 || res.Effects[0].Kind != model.EffectMerge {
			b.Fatalf("the %d gates did not lead to the merge: %v", n, res.Log)
		}
	}
}

// BenchmarkStepGatesAllHold1000 measures one event on which 1,000 gates all hold.
func BenchmarkStepGatesAllHold1000(b *testing.B) { benchGatesHold(b, 1000) }

// BenchmarkStepGatesAllHold3000 is BenchmarkStepGatesAllHold1000 with 3,000 gates: it
// should cost three times as much, not nine.
func BenchmarkStepGatesAllHold3000(b *testing.B) { benchGatesHold(b, 3000) }

// BenchmarkStepParallelEnter20 measures the event that enters a parallel stage of 20
// review branches: the implementer's report, and 20 dispatches.
func BenchmarkStepParallelEnter20(b *testing.B) {
	var reviewers []string
	for i := 1; i <= 20; i++ {
		reviewers = append(reviewers, fmt.Sprintf("r%d", i))
	}
	cfg := parallelConfig(b, lang.JoinAll, reviewers...)
	f := prFacts()
	st := settled(cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0).State
	in := reportOn(st, "loop/7/1", "implement", 1, lang.VerdictComplete, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := Step(cfg, st, in, f, t0.Add(time.Minute)); len(res.Effects) != 20 {
			b.Fatalf("%d effects, not the 20 dispatches", len(res.Effects))
		}
	}
}

// childrenConfig is a pipeline whose first stage is a parallel stage of n branches, each
// a sub-pipeline of one agent stage.
func childrenConfig(n int) *lang.Config {
	cfg := &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "checker", Dispatch: lang.DispatchRepositoryDispatch, EventType: "check"}}}
	fan := &lang.Stage{ID: "fan", Type: lang.StageParallel, Join: lang.JoinAll, OnComplete: lang.TargetComplete}
	for i := 1; i <= n; i++ {
		fan.Branches = append(fan.Branches, &lang.Stage{ID: fmt.Sprintf("b%d", i), Type: lang.StagePipeline, Pipeline: "inner"})
	}
	cfg.Pipelines = []*lang.Pipeline{
		{Name: "outer", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{fan}},
		{Name: "inner", Stages: []*lang.Stage{{ID: "check", Type: lang.StageAgent, Agent: "checker", AgentAction: "review", OnComplete: lang.TargetComplete}}},
	}
	return cfg
}

// BenchmarkStepSubPipelineChildren50Waiting measures an event that changes nothing on a
// run whose parallel stage waits for 50 sub-pipeline runs, each at its agent.
func BenchmarkStepSubPipelineChildren50Waiting(b *testing.B) {
	cfg := childrenConfig(50)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	for round := 0; len(res.Effects) > 0; round++ {
		if round == 10 {
			b.Fatal("the children's dispatches do not settle")
		}
		res = settled(cfg, res, f, t0)
	}
	st := res.State
	if len(st.Runs) != 51 {
		b.Fatalf("%d runs, not the parent and its 50 children", len(st.Runs))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute)); res.Changed {
			b.Fatal("an event that changes nothing changed the state")
		}
	}
}
