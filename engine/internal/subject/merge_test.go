package subject

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// fakeStageKernel is a StageKernel over fakeKernel: Step records the stage and the pull
// request in place; GuardBlocks says what guard says of a branch.
type fakeStageKernel struct {
	*fakeKernel
	env       lang.Env
	guard     map[string]string // branch ID: why the guard holds it back
	steps     []string          // "<stage> on #<n>"
	held      []string          // "<stage>: <why>"
	escalated []string
	cancelled []string
	waitPoll  bool // WaitMergeability escalates
	polled    []string
}

func (k *fakeStageKernel) OnPR(pr *model.PullRequest, ref model.PRRef) func() {
	old := k.scope.Facts
	f := *k.scope.Issue.Base
	f.PR = pr
	k.scope.Facts = &f
	return func() { k.scope.Facts = old }
}

func (k *fakeStageKernel) Step(_ *lang.Pipeline, _ *model.Run, stage *lang.Stage) bool {
	k.steps = append(k.steps, fmt.Sprintf("%s on #%d", stage.ID, k.scope.Facts.PR.Number))
	return true
}

func (k *fakeStageKernel) Env(*lang.Pipeline, *model.Run) lang.Env { return k.env }

func (k *fakeStageKernel) Hold(run *model.Run, stage *lang.Stage, why, who string) bool {
	k.held = append(k.held, stage.ID+": "+why)
	return false
}

func (k *fakeStageKernel) GuardBlocks(_ *lang.Pipeline, _ *model.Run, b *lang.Stage) string {
	return k.guard[b.ID]
}

func (k *fakeStageKernel) CancelBranches(_ *lang.Pipeline, _ *model.Run, par *lang.Stage, why string) {
	k.cancelled = append(k.cancelled, par.ID+": "+why)
}

func (k *fakeStageKernel) Escalate(run *model.Run, why string) {
	run.Status = model.RunEscalated
	k.escalated = append(k.escalated, why)
}

func (k *fakeStageKernel) WaitMergeability(_ *model.Run, _ *model.StageRun, what string) bool {
	k.polled = append(k.polled, what)
	return k.waitPoll
}

func template(t *testing.T, src string) *lang.Template {
	tpl, err := lang.CompileTemplate(src, lang.Pos{})
	require.Nil(t, err)
	return tpl
}

func newStageKernel(prs map[int]*model.PullRequest, others map[string]*model.PullRequest) *fakeStageKernel {
	return &fakeStageKernel{fakeKernel: &fakeKernel{scope: issueScope(prs, others)}, guard: map[string]string{}}
}

func TestStageGateWaitsForItsPullRequest(t *testing.T) {
	k := newStageKernel(map[int]*model.PullRequest{9: openPR(9, own, "dev")}, nil)
	gate := &lang.Stage{ID: "ci", Type: lang.StageGate, Conditions: []lang.Condition{{Check: "ci_status"}}}
	run := &model.Run{ID: "r/7/1", Stages: map[string]*model.StageRun{"ci": {}}}
	moved, done := Stage(k, nil, run, gate)
	assert.True(t, done)
	assert.False(t, moved)
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, NoPullRequestYet, run.Stages["ci"].Results[0].Message)
	assert.Empty(t, k.steps)

	run.Context = map[string]any{"pr_number": 9}
	_, done = Stage(k, nil, run, gate)
	assert.True(t, done)
	assert.Equal(t, []string{"ci on #9"}, k.steps, "the gate reads the run's pull request")
	assert.Equal(t, 7, k.scope.Facts.PR.Number, "the issue's view is back in place")

	_, done = Stage(k, nil, run, &lang.Stage{ID: "impl", Type: lang.StageAgent})
	assert.False(t, done, "an agent stage is its type's")
	k.scope = Scope{Facts: &model.Facts{Repo: own, PR: openPR(1, own, "ann")}}
	_, done = Stage(k, nil, run, gate)
	assert.False(t, done, "a pull request's run: the gate is its type's")
}

func TestMergeOnlyARunsPullRequest(t *testing.T) {
	k := newStageKernel(map[int]*model.PullRequest{9: openPR(9, own, "dev"), 4: openPR(4, own, "dev")}, nil)
	k.env = lang.Env{"context": map[string]any{"n": 4}}
	run := &model.Run{ID: "r/7/1", Context: map[string]any{"pr_number": 9, "prs": []any{9}}}
	merge := &lang.Stage{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR}
	assert.True(t, Merge(k, nil, run, merge))
	assert.Equal(t, []string{"merge on #9"}, k.steps)

	named := &lang.Stage{ID: "m4", Type: lang.StageAction, Action: lang.ActionMergePR}
	named.Config.PR = template(t, "{{ context.n }}")
	Merge(k, nil, run, named)
	assert.Equal(t, []string{"m4: #4 is not a pull request of the run (context.prs); it is not merged"}, k.held)
	run.Context["prs"] = []any{9, 4}
	Merge(k, nil, run, named)
	assert.Equal(t, []string{"merge on #9", "m4 on #4"}, k.steps)
}

func TestMergeAllOrNone(t *testing.T) {
	api := openPR(12, "acme/api", "bob")
	api.Mergeable, api.MergeState = model.Mergeable, "CLEAN"
	web := openPR(2, own, "dev")
	web.Mergeable, web.MergeState = model.Mergeable, "CLEAN"
	k := newStageKernel(map[int]*model.PullRequest{2: web}, map[string]*model.PullRequest{"acme/api#12": api})
	k.env = lang.Env{}
	b1 := &lang.Stage{ID: "m-api", Type: lang.StageAction, Action: lang.ActionMergePR}
	b1.Config.PR = template(t, "acme/api#12")
	b2 := &lang.Stage{ID: "m-web", Type: lang.StageAction, Action: lang.ActionMergePR}
	b2.Config.PR = template(t, "2")
	par := &lang.Stage{ID: "merge", Type: lang.StageParallel, Branches: []*lang.Stage{b1, b2}}
	run := &model.Run{ID: "m/7/1", Context: map[string]any{"prs": []any{"acme/api#12", "acme/web#2"}},
		Stages: map[string]*model.StageRun{"merge": {}, "m-api": {}, "m-web": {}}}
	stop, moved := MergeAll(k, nil, run, par)
	assert.False(t, stop, "both can be merged: the branches go on")
	assert.False(t, moved)

	k.guard["m-web"] = "the merge guard does not hold: review is stale"
	stop, moved = MergeAll(k, nil, run, par)
	assert.True(t, stop)
	assert.True(t, moved)
	require.Len(t, k.escalated, 1)
	assert.Contains(t, k.escalated[0], `stage "merge" merges all of its pull requests or none; none is merged: #2 (branch m-web): the merge guard does not hold: review is stale`)
	assert.Equal(t, []string{"merge: none is merged"}, k.cancelled)

	delete(k.guard, "m-web")
	api.State = model.PRMerged
	web.Draft = true
	MergeAll(k, nil, run, par)
	require.Len(t, k.escalated, 2)
	assert.Contains(t, k.escalated[1], "a merge went in before another failed: merged acme/api#12 (branch m-api); not merged #2 (branch m-web): #2 (branch m-web): it is a draft")

	api.State, web.Draft = model.PROpen, false
	web.Mergeable = "unknown"
	stop, moved = MergeAll(k, nil, run, par)
	assert.True(t, stop)
	assert.False(t, moved)
	assert.Equal(t, []string{`every pull request of stage "merge"`}, k.polled)
	assert.Equal(t, model.StageWaiting, run.Stages["merge"].Status)
}
