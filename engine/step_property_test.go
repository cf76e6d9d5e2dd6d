package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// Property tests of Step and Settle over small random pipelines of gates and label and
// comment actions, driven by random events, facts and effect outcomes.

var propLabels = []string{"a", "b", "c"}

// propPipeline builds a pipeline of 2 to 5 stages whose transitions point at random
// stages, complete or fail.
func propPipeline(r *rand.Rand) *lang.Pipeline {
	n := 2 + r.IntN(4)
	id := func(i int) string { return fmt.Sprintf("s%d", i) }
	target := func() string {
		switch k := r.IntN(n + 3); {
		case k < n:
			return id(k)
		case k == n:
			return lang.TargetComplete
		case k == n+1:
			return lang.TargetFail
		default:
			return "" // the next stage
		}
	}
	p := &lang.Pipeline{Name: "prop", Trigger: lang.Trigger{Event: "pull_request.opened"},
		OnEvents: []lang.EventReaction{{Event: "pull_request.closed", Action: lang.ReactCancel}}}
	for i := range n {
		lbl := propLabels[r.IntN(len(propLabels))]
		var s *lang.Stage
		switch r.IntN(3) {
		case 0:
			s = &lang.Stage{Type: lang.StageGate, OnPass: target(), Conditions: []lang.Condition{{Check: "has-" + lbl, Eval: labelCheck(lbl)}}}
			if r.IntN(2) == 0 {
				s.OnFail = target()
			}
		case 1:
			s = &lang.Stage{Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{lbl}}, OnSuccess: target()}
		default:
			s = &lang.Stage{Type: lang.StageAction, Action: lang.ActionRemoveLabel, Config: lang.ActionConfig{Labels: []string{lbl}}, OnSuccess: target(), OnFailure: target()}
		}
		s.ID = id(i)
		p.Stages = append(p.Stages, s)
	}
	return p
}

func propFacts(r *rand.Rand) *model.Facts {
	var ls []string
	for _, l := range propLabels {
		if r.IntN(2) == 0 {
			ls = append(ls, l)
		}
	}
	return prFacts(ls...)
}

var propEvents = []string{"pull_request.opened", "pull_request.labeled", "pull_request.unlabeled", "pull_request.synchronize", "status"}

// checkInvariants asserts (a) a run that is not final is at a stage of its pipeline and
// (b) each stage has one record whose attempt only grows.
func checkInvariants(t *testing.T, cfg *lang.Config, st *model.State, attempts map[string]int, where string) {
	t.Helper()
	for _, run := range st.Runs {
		p := cfg.PipelineFor(run)
		require.NotNil(t, p, "%s: run %s names no pipeline", where, run.ID)
		if !run.Status.Final() {
			require.NotNil(t, p.Stage(run.Stage), "%s: run %s at missing stage %q", where, run.ID, run.Stage)
		}
		for id, sr := range run.Stages {
			require.NotNil(t, core.StageOrBranch(p, id), "%s: run %s records missing stage or branch %q", where, run.ID, id)
			k := run.ID + "/" + id
			require.GreaterOrEqual(t, sr.Attempt, attempts[k], "%s: %s attempt went back", where, k)
			require.GreaterOrEqual(t, sr.Attempt, 1, "%s: %s has no attempt", where, k)
			attempts[k] = sr.Attempt
		}
	}
}

// TestStepProperties runs random pipelines through random inputs and checks after every
// Step and Settle that runs point at real stages, attempts only grow, and that the same
// input applied twice equals once.
func TestStepProperties(t *testing.T) {
	moved, looped, settled := 0, 0, 0
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 9))
		cfg := &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{propPipeline(r)}}
		st := &model.State{}
		attempts := map[string]int{}
		now := t0
		for i := range 12 {
			now = now.Add(time.Minute)
			in := model.Input{Key: fmt.Sprintf("d%d", i), Event: propEvents[r.IntN(len(propEvents))], Actor: "amy", Number: 7}
			if i == 0 {
				in.Event = "pull_request.opened"
			}
			facts := propFacts(r)
			where := fmt.Sprintf("seed %d input %d (%s)", seed, i, in.Event)
			res := Step(cfg, st, in, facts, now)
			checkInvariants(t, cfg, res.State, attempts, where)

			// (c) the same input again, on the state it produced, changes nothing.
			again := Step(cfg, res.State, in, facts, now)
			require.False(t, again.Changed, "%s: applied twice changed the state", where)
			require.True(t, reflect.DeepEqual(res.State, again.State), "%s: applied twice differs from once", where)
			asked := map[string]bool{}
			for _, e := range res.Effects {
				asked[e.Key] = true
			}
			for _, e := range again.Effects {
				require.True(t, asked[e.Key], "%s: applied twice asks for a new effect %s", where, e.Key)
			}

			st = res.State
			for round := 0; len(res.Effects) > 0 && round < 4; round++ {
				var outs []model.Outcome
				for _, e := range res.Effects {
					o := model.Outcome{Key: e.Key}
					if r.IntN(4) == 0 {
						o.Err, o.Permanent = "refused", r.IntN(2) == 0
					}
					outs = append(outs, o)
				}
				settled++
				res = Settle(cfg, st, model.Input{Actor: "bot", Visits: res.Visits}, outs, facts, now)
				checkInvariants(t, cfg, res.State, attempts, fmt.Sprintf("%s settle %d", where, round))
				st = res.State
			}
		}
		for _, run := range st.Runs {
			if len(run.Stages) > 1 {
				moved++
			}
			for _, sr := range run.Stages {
				if sr.Attempt > 1 {
					looped++
					break
				}
			}
		}
	}
	// The generator must produce runs that move, or the properties hold vacuously.
	t.Logf("%d of 300 runs moved past their first stage, %d entered a stage again, %d settle rounds", moved, looped, settled)
	require.Greater(t, moved, 60, "runs that moved past their first stage")
	require.Greater(t, looped, 20, "runs that entered a stage again")
	require.Greater(t, settled, 100, "effects settled")
}

// TestPropertyChecksCanFail makes sure the invariant check catches a run at a missing
// stage and an attempt that goes back.
func TestPropertyChecksCanFail(t *testing.T) {
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "prop", Stages: []*lang.Stage{{ID: "s0", Type: lang.StageGate}}}}}
	bad := []*model.State{
		{Runs: []*model.Run{{ID: "prop/7/1", Pipeline: "prop", Status: model.RunRunning, Stage: "gone", Stages: map[string]*model.StageRun{}}}},
		{Runs: []*model.Run{{ID: "prop/7/1", Pipeline: "prop", Status: model.RunRunning, Stage: "s0", Stages: map[string]*model.StageRun{"s0": {Attempt: 1}}}}},
	}
	for i, st := range bad {
		ft := &testing.T{}
		attempts := map[string]int{"prop/7/1/s0": 2}
		done := make(chan struct{})
		go func() { defer close(done); checkInvariants(ft, cfg, st, attempts, "bad") }()
		<-done
		require.True(t, ft.Failed(), "case %d not caught", i)
	}
}
