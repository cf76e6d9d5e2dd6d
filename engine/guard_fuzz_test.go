package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// FuzzMergeGuard builds a pipeline of gates, label actions, parallel stages and a merge from the input,
// a stored state claiming anything at all about its run, and facts; whatever the state
// says, a merge is asked for only when the pipeline as written has a path from its
// first stage to the merge on which every gate passes on the facts.
func FuzzMergeGuard(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 1, 5, 0, 7, 1, 2, 3})
	f.Add([]byte{5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, bad := guardCase(data); bad != "" {
			t.Fatal(bad)
		}
	})
}

// TestMergeGuardSample plays guardCase over a fixed sample: some inputs merge, some do
// not, and none merges without a path of passing gates.
func TestMergeGuardSample(t *testing.T) { playGuardSample(t, 1, 2, 24, guardCase) }

// playGuardSample plays play over 3,000 inputs of size bytes drawn from the seeds: none may
// break the guard's promise, and some must merge and some not, or the sample exercises
// nothing.
func playGuardSample(t *testing.T, seed1, seed2 uint64, size int, play func([]byte) (bool, string)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed1, seed2))
	merged := 0
	for i := 0; i < 3000; i++ {
		data := make([]byte, size)
		for j := range data {
			data[j] = byte(rng.IntN(256))
		}
		m, bad := play(data)
		if bad != "" {
			t.Fatal(bad)
		}
		if m {
			merged++
		}
	}
	if merged == 0 || merged == 3000 {
		t.Fatalf("the sample merged %d of 3000 times: it does not exercise the guard", merged)
	}
}

// guardCase reports whether the case built from data merged, and what is wrong if it
// merged without the right to.
func guardCase(data []byte) (merged bool, bad string) {
	{
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		n := 2 + next()%5 // stages, the last a merge
		labels := []string{"a", "b", "c"}
		p := &lang.Pipeline{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}}
		for i := 0; i < n; i++ {
			s := &lang.Stage{ID: fmt.Sprintf("s%d", i)}
			target := func() string {
				if k := next() % (n + 1); k < n {
					return fmt.Sprintf("s%d", k)
				}
				return lang.TargetComplete
			}
			switch {
			case i == n-1:
				s.Type, s.Action, s.OnSuccess = lang.StageAction, lang.ActionMergePR, lang.TargetComplete
			case next()%3 == 0:
				s.Type, s.Action, s.Config.Labels, s.OnSuccess = lang.StageAction, lang.ActionAddLabel, []string{labels[next()%3]}, target()
			case next()%4 == 0: // a parallel stage of one review branch; a rejection goes elsewhere
				s.Type, s.Join, s.OnComplete = lang.StageParallel, lang.JoinAll, target()
				s.Branches = []*lang.Stage{{ID: s.ID + "-b", Type: lang.StageAgent, Agent: "rev", AgentAction: "review"}}
				s.OnAnyReject = &lang.Rule{Goto: target()}
			default:
				l := labels[next()%3]
				s.Type, s.OnPass = lang.StageGate, target()
				s.Conditions = []lang.Condition{{Check: "label " + l, Eval: labelCheck(l)}}
				if next()%4 == 0 { // a gate run only when a label is on the PR
					s.Condition, s.SkipTo = &lang.Predicate{LabelsInclude: []string{labels[next()%3]}}, target()
				}
			}
			p.Stages = append(p.Stages, s)
		}
		cfg := &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{p},
			Agents: []*lang.Agent{{Name: "rev", Dispatch: lang.DispatchLabel, Label: "review-me"}}}
		facts := prFacts()
		for _, l := range labels {
			if next()%2 == 0 {
				facts.PR.Labels = append(facts.PR.Labels, l)
			}
		}
		// A stored run that claims whatever the input says.
		run := &model.Run{ID: "p/7/1", Pipeline: "p", ConfigOID: "blob1", Subject: "acme/widgets#7", Status: model.RunRunning,
			Stage: fmt.Sprintf("s%d", next()%n), Stages: map[string]*model.StageRun{}, VerifiedSHA: facts.PR.HeadSHA}
		statuses := []model.StageStatus{model.StageWaiting, model.StagePassed, model.StageSucceeded, model.StageActing, model.StageRetrying, model.StageFailed}
		for _, s := range p.Stages {
			run.Stages[s.ID] = &model.StageRun{Status: statuses[next()%len(statuses)], Attempt: 1}
			for _, b := range s.Branches {
				run.Stages[b.ID] = &model.StageRun{Status: statuses[next()%len(statuses)], Attempt: 1, Parent: s.ID, ParentAttempt: 1,
					Verdict: []string{lang.VerdictApprove, lang.VerdictReject, ""}[next()%3]}
			}
		}
		st := &model.State{Version: 1, Runs: []*model.Run{run}}
		res := Step(cfg, st, model.Input{Key: "k", Event: "pull_request_review.submitted"}, facts, time.Unix(0, 0))
		merges := 0
		for _, e := range res.Effects {
			if e.Kind == model.EffectMerge {
				merges++
			}
		}
		if merges == 0 {
			return false, ""
		}
		// The oracle: a path of passing gates from the first stage to the merge, on the
		// facts as they are after this step's label effects are asked for (add_label
		// effects happen before the merge only in a later invocation, so the facts
		// read now are what count).
		if !pathOfPassingGates(p, facts) {
			return true, fmt.Sprintf("merge asked for without a path of passing gates: stages %s, labels %v, state at %s",
				describeStages(p), facts.PR.Labels, run.Stage)
		}
		return true, ""
	}
}

func pathOfPassingGates(p *lang.Pipeline, f *model.Facts) bool {
	index := map[string]int{}
	for i, s := range p.Stages {
		index[s.ID] = i
	}
	seen := map[int]bool{0: true}
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		s := p.Stages[queue[0]]
		if s.Action == lang.ActionMergePR {
			return true
		}
		var to string
		var also []string // further free edges
		switch s.Type {
		case lang.StageGate:
			if c := s.Condition; c != nil && !f.PR.HasLabel(c.LabelsInclude[0]) {
				to = s.SkipTo // its condition does not hold: the gate is skipped
				break
			}
			if s.Conditions[0].Eval.(Check).Evaluate(f).Status != model.GatePass {
				continue
			}
			to = s.OnPass
		case lang.StageParallel:
			to, also = s.OnComplete, []string{s.OnAnyReject.Goto}
		default:
			to = s.OnSuccess
		}
		for _, t := range append([]string{to}, also...) {
			if j, ok := index[t]; ok && !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return false
}

func describeStages(p *lang.Pipeline) string {
	out := ""
	for _, s := range p.Stages {
		switch s.Type {
		case lang.StageGate:
			out += fmt.Sprintf("[%s gate %s -> %s", s.ID, s.Conditions[0].Check, s.OnPass)
			if s.Condition != nil {
				out += fmt.Sprintf(" if %s else -> %s", s.Condition.LabelsInclude[0], s.SkipTo)
			}
			out += "] "
		case lang.StageParallel:
			out += fmt.Sprintf("[%s parallel -> %s, any reject -> %s] ", s.ID, s.OnComplete, s.OnAnyReject.Goto)
		default:
			out += fmt.Sprintf("[%s %s -> %s] ", s.ID, s.Action, s.OnSuccess)
		}
	}
	return out
}
