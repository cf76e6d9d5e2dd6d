package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// FuzzMultiPRMergeGuard is FuzzMergeGuard for a multi-PR run's merge-all stage: gates over
// the run's pull request, one of context.prs or all of them, then a parallel stage merging
// acme/api#12 and acme/web#30; a stored state claiming anything; facts of both pull
// requests. Whatever the state says, a merge is asked for only when (1) the pull request is
// open, not a draft, not in conflict; (2) so is every other pull request of the stage not
// merged yet (all or none); (3) for each of them, the pipeline as written has a path to the
// merge-all stage on which every gate passes on that pull request's facts.
func FuzzMultiPRMergeGuard(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 1, 5, 0, 7, 1, 2, 3})
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, bad := multiGuardCase(data); bad != "" {
			t.Fatal(bad)
		}
	})
}

func TestMultiPRMergeGuardSample(t *testing.T) { playGuardSample(t, 3, 4, 32, multiGuardCase) }

// multiGate is a gate of the case: label l on the pull request pr names ("" for the run's
// own, "0" and "1" for context.prs[i], "all").
type multiGate struct{ pr, label string }

func multiGuardCase(data []byte) (merged bool, bad string) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	p, gates := multiGuardPipeline(next)
	cfg := &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{p}}
	api, web := apiPR(), webPR()
	prs := []*model.PullRequest{api, web}
	for _, pr := range prs {
		for _, l := range multiLabels {
			if next()%3 != 0 {
				pr.Labels = append(pr.Labels, l)
			}
		}
		pr.Mergeable = []string{model.Mergeable, model.Mergeable, model.Mergeable, model.Conflicting, model.Unknown}[next()%5]
		pr.Draft = next()%6 == 0
		pr.State = []string{model.PROpen, model.PROpen, model.PROpen, model.PROpen, model.PRMerged, model.PRClosed}[next()%6]
	}
	facts := multiFacts(web, api)
	run := multiGuardRun(p, api, next)
	st := &model.State{Version: 1, Runs: []*model.Run{run}}
	res := Step(cfg, st, model.Input{Key: "k", Event: "pull_request_review.submitted"}, facts, time.Unix(0, 0))
	byNumber := map[int]*model.PullRequest{12: api, 30: web}
	for _, e := range res.Effects {
		if e.Kind != model.EffectMerge {
			continue
		}
		merged = true
		pr := byNumber[e.Number]
		if pr == nil || (e.Number == 30) != (e.Repo == "acme/web") {
			return true, fmt.Sprintf("merge of %s#%d, not a pull request of the run", e.Repo, e.Number)
		}
		if bad := multiMergeRefused(p, gates, e, prs, run.Stage); bad != "" {
			return true, bad
		}
	}
	return merged, ""
}

// multiLabels are the labels the gates of multiGuardPipeline look for.
var multiLabels = []string{"a", "b"}

// multiGuardPipeline draws 1 to 4 gates, each on a label of one pull request, of the
// first, of the second, or of all, leading to another gate, the merge-all stage or the end.
func multiGuardPipeline(next func() int) (*lang.Pipeline, map[string]multiGate) {
	n := 1 + next()%4 // gates, then the merge-all stage
	prChoices := []string{"", "0", "1", "all"}
	p := &lang.Pipeline{Name: "xr", Scope: lang.ScopeMultiPR, Trigger: lang.Trigger{Event: "issues.labeled", Labels: []string{"cross-repo"}}}
	gates := map[string]multiGate{}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("g%d", i)
		target := func() string {
			if k := next() % (n + 2); k < n {
				return fmt.Sprintf("g%d", k)
			} else if k == n {
				return "merge-all"
			}
			return lang.TargetComplete
		}
		g := multiGate{pr: prChoices[next()%4], label: multiLabels[next()%2]}
		gates[id] = g
		var eval Check = labelCheck(g.label)
		switch g.pr {
		case "0", "1":
			eval = prLabel{label: g.label, pr: mustTemplate("{{ context.prs[" + g.pr + "] }}")}
		case "all":
			eval = prLabel{label: g.label, pr: mustTemplate("all")}
		}
		p.Stages = append(p.Stages, &lang.Stage{ID: id, Type: lang.StageGate, OnPass: target(), Conditions: []lang.Condition{{Check: id, Eval: eval}}})
	}
	p.Stages = append(p.Stages, &lang.Stage{ID: "merge-all", Type: lang.StageParallel, Join: lang.JoinAll, OnComplete: lang.TargetComplete, Branches: []*lang.Stage{
		{ID: "merge-api", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{PR: mustTemplate("{{ context.prs[0] }}")}},
		{ID: "merge-web", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{PR: mustTemplate("{{ context.prs[1] }}")}},
	}})
	return p, gates
}

// multiGuardRun draws where the run stands and what its stages say.
func multiGuardRun(p *lang.Pipeline, api *model.PullRequest, next func() int) *model.Run {
	run := &model.Run{ID: "xr/4/1", Pipeline: "xr", ConfigOID: "blob1", Subject: "acme/api#4", Status: model.RunRunning,
		Stage: p.Stages[next()%len(p.Stages)].ID, Stages: map[string]*model.StageRun{},
		Context:     map[string]any{"pr_number": "acme/api#12", "prs": []any{"acme/api#12", "acme/web#30"}},
		VerifiedSHA: []string{"", api.HeadSHA, "0000000000"}[next()%3]}
	statuses := []model.StageStatus{model.StageWaiting, model.StagePassed, model.StageSucceeded, model.StageActing, model.StageRetrying, model.StageFailed}
	for _, s := range p.Stages {
		run.Stages[s.ID] = &model.StageRun{Status: statuses[next()%len(statuses)], Attempt: 1}
		for _, b := range s.Branches {
			run.Stages[b.ID] = &model.StageRun{Status: statuses[next()%len(statuses)], Attempt: 1, Parent: s.ID, ParentAttempt: 1}
		}
	}
	return run
}

// multiMergeRefused says why merge e must not have been asked for, or "": all or none of the
// pull requests, each open, ready and on a path of passing gates.
func multiMergeRefused(p *lang.Pipeline, gates map[string]multiGate, e model.Effect, prs []*model.PullRequest, at string) string {
	api, web := prs[0], prs[1]
	for _, other := range prs {
		if other.State == model.PRMerged {
			continue
		}
		if other.State != model.PROpen || other.Draft || other.Mergeable == model.Conflicting {
			return fmt.Sprintf("merge of #%d asked for while #%d is %s (draft %v, %s): all or none; stages %s",
				e.Number, other.Number, other.State, other.Draft, other.Mergeable, describeMulti(p, gates))
		}
		if !multiPath(p, gates, other, prs) {
			return fmt.Sprintf("merge of #%d asked for without a path of passing gates for #%d: stages %s, labels %v %v, state at %s",
				e.Number, other.Number, describeMulti(p, gates), api.Labels, web.Labels, at)
		}
	}
	return ""
}

// multiPath reports whether p has a path from its first stage to merge-all on which every
// gate passes with `on` as the pull request merged.
func multiPath(p *lang.Pipeline, gates map[string]multiGate, on *model.PullRequest, prs []*model.PullRequest) bool {
	index := map[string]int{}
	for i, s := range p.Stages {
		index[s.ID] = i
	}
	holds := func(g multiGate) bool {
		switch g.pr {
		case "":
			return on.HasLabel(g.label)
		case "0":
			return prs[0].HasLabel(g.label)
		case "1":
			return prs[1].HasLabel(g.label)
		}
		return prs[0].HasLabel(g.label) && prs[1].HasLabel(g.label)
	}
	seen := map[int]bool{0: true}
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		s := p.Stages[queue[0]]
		if s.ID == "merge-all" {
			return true
		}
		if !holds(gates[s.ID]) {
			continue
		}
		if j, ok := index[s.OnPass]; ok && !seen[j] {
			seen[j] = true
			queue = append(queue, j)
		}
	}
	return false
}

func describeMulti(p *lang.Pipeline, gates map[string]multiGate) string {
	out := ""
	for _, s := range p.Stages {
		if g, ok := gates[s.ID]; ok {
			out += fmt.Sprintf("[%s label %s on pr %q -> %s] ", s.ID, g.label, g.pr, s.OnPass)
		}
	}
	return out
}
