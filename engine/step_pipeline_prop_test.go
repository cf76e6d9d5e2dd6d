package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// subPropConfig draws a parent pipeline with a pipeline stage "sub" that runs a child, kid,
// which waits a while at a gate on a label the random facts carry half the time.
func subPropConfig(r *rand.Rand) *lang.Config {
	parent, child := propPipeline(r), propPipeline(r)
	child.Name, child.Trigger, child.OnEvents = "kid", lang.Trigger{}, nil
	child.Stages = append([]*lang.Stage{{ID: "wait", Type: lang.StageGate, OnPass: child.Stages[0].ID,
		Conditions: []lang.Condition{{Check: "has-a", Eval: labelCheck("a")}}}}, child.Stages...)
	at := r.IntN(len(parent.Stages))
	onErr := []string{lang.TargetFail, lang.TargetEscalate, parent.Stages[0].ID, ""}[r.IntN(4)]
	sub := &lang.Stage{ID: "sub", Type: lang.StagePipeline, Pipeline: "kid", OnError: &lang.ErrorPolicy{Retry: r.IntN(2), Then: onErr}}
	if onErr == "" {
		sub.OnError = nil
	}
	parent.Stages = append(parent.Stages[:at], append([]*lang.Stage{sub}, parent.Stages[at:]...)...)
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{parent, child}}
}

// checkChildren: one child per attempt of the parent's pipeline stage, and a live child only
// of a live parent standing at that stage, at that attempt.
func checkChildren(t *testing.T, st *model.State, where string) {
	seen := map[string]string{}
	for _, c := range st.Runs {
		if c.Parent == "" {
			continue
		}
		k := fmt.Sprintf("%s#%d", c.Parent, c.ParentAttempt)
		require.Empty(t, seen[k], "%s: two children of %s: %s and %s", where, k, seen[k], c.ID)
		seen[k] = c.ID
		if c.Status.Final() {
			continue
		}
		pid, _ := model.SplitParent(c.Parent)
		p := runOf(st, pid)
		require.NotNil(t, p, where)
		require.False(t, p.Status.Final(), "%s: child %s of a final parent is %s", where, c.ID, c.Status)
		require.Equal(t, "sub", p.Stage, "%s: live child %s of a parent at %s", where, c.ID, p.Stage)
		require.Equal(t, p.Stages["sub"].Attempt, c.ParentAttempt, "%s: live child of an earlier attempt", where)
	}
}

// subPropTally counts what the random stories exercised, so that the test shows it tried.
type subPropTally struct{ children, followed, again, closedMid int }

// subPropStory plays one random story of 12 inputs (and the settles of their effects),
// checking the invariants after each.
func subPropStory(t *testing.T, seed uint64, tally *subPropTally) {
	r := rand.New(rand.NewPCG(seed, 17))
	cfg := subPropConfig(r)
	st := &model.State{}
	attempts := map[string]int{}
	now := t0
	check := func(st *model.State, where string) {
		checkInvariants(t, cfg, st, attempts, where)
		checkChildren(t, st, where)
	}
	for i := range 12 {
		now = now.Add(time.Minute)
		in := model.Input{Key: fmt.Sprintf("d%d", i), Event: propEvents[r.IntN(len(propEvents))], Actor: "amy", Number: 7}
		if i == 0 {
			in.Event = "pull_request.opened"
		}
		facts := propFacts(r)
		if i > 1 && r.IntN(5) == 0 {
			in.Event, facts.PR.State = "pull_request.closed", model.PRClosed // cancels the parent
			for _, c := range st.Runs {
				if c.Parent != "" && !c.Status.Final() {
					tally.closedMid++
				}
			}
		}
		where := fmt.Sprintf("seed %d input %d (%s)", seed, i, in.Event)
		res := Step(cfg, st, in, facts, now)
		check(res.State, where)
		require.False(t, Step(cfg, res.State, in, facts, now).Changed, "%s: applied twice changed the state", where)
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
			res = Settle(cfg, st, model.Input{Actor: "bot", Visits: res.Visits}, outs, facts, now)
			check(res.State, fmt.Sprintf("%s settle %d", where, round))
			st = res.State
		}
	}
	for _, run := range st.Runs {
		sr := run.Stages["sub"]
		switch {
		case run.Parent != "":
			tally.children++
		case sr != nil && sr.Status == model.StageSucceeded:
			tally.followed++
		}
		if run.Parent == "" && sr != nil && sr.Attempt > 1 {
			tally.again++
		}
	}
}

func TestSubPipelineProperties(t *testing.T) {
	var tally subPropTally
	for seed := range uint64(200) {
		subPropStory(t, seed, &tally)
	}
	t.Logf("%d children started, %d parents followed a completed child, %d entered their pipeline stage again, %d closed mid-child",
		tally.children, tally.followed, tally.again, tally.closedMid)
	require.Greater(t, tally.closedMid, 5, "pull requests closed while a child ran")
	require.Greater(t, tally.children, 60, "children started")
	require.Greater(t, tally.again, 10, "pipeline stages entered again (a new child)")
	require.Greater(t, tally.followed, 30, "parents that moved on after their child")
}
