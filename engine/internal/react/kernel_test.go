package react

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fakeKernel is a Kernel over plain values that records what the reactions asked of it.
type fakeKernel struct {
	world World
	log   []string
	// moves are the moves asked for, as "enter <target>", "finish <status> <target>",
	// "leave <stage> <status> <target>" and "record", each with its why.
	moves []move
	emits []model.Effect
	// own, by and child are what Merged gives.
	own   *lang.Stage
	by    string
	child bool
	// plan and planErr are what PlanNotify gives; dispatch and dispatchErr AgentDispatch.
	plan        model.Effect
	planErr     string
	dispatch    model.Effect
	dispatchErr error
	// notified is the target PlanNotify was last asked for, rendered.
	notified *lang.Template
}

type move struct{ what, why string }

func (k *fakeKernel) World() World { return k.world }
func (k *fakeKernel) Logf(format string, args ...any) {
	k.log = append(k.log, fmt.Sprintf(format, args...))
}
func (k *fakeKernel) Enter(run *model.Run, target, why string) {
	run.Stage = target
	run.Status = model.RunRunning
	k.moves = append(k.moves, move{"enter " + target, why})
}
func (k *fakeKernel) Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string) {
	k.moves = append(k.moves, move{fmt.Sprintf("leave %s %s %s", s.ID, status, target), why})
}
func (k *fakeKernel) Finish(run *model.Run, status model.RunStatus, target, why string) {
	run.Status = status
	k.moves = append(k.moves, move{fmt.Sprintf("finish %s %s", status, target), why})
}
func (k *fakeKernel) Record(run *model.Run, why string) {
	k.moves = append(k.moves, move{"record", why})
}
func (k *fakeKernel) Emit(eff model.Effect) { k.emits = append(k.emits, eff) }
func (k *fakeKernel) Merged(*lang.Pipeline, *model.Run) (*lang.Stage, string, bool) {
	return k.own, k.by, k.child
}
func (k *fakeKernel) TemplateEnv(p *lang.Pipeline, run *model.Run) lang.Env {
	return lang.Env{"run": map[string]any{"id": run.ID}, "trigger": map[string]any{}}
}
func (k *fakeKernel) PlanNotify(run *model.Run, eff model.Effect, target, _ *lang.Template, _ lang.Env) (model.Effect, string) {
	k.notified = target
	if k.planErr != "" || k.plan.Kind == "" {
		return model.Effect{}, k.planErr
	}
	eff.Kind, eff.Body = k.plan.Kind, k.plan.Body
	return eff, ""
}
func (k *fakeKernel) AgentDispatch(_ *lang.Pipeline, run *model.Run, s *lang.Stage, ag *lang.Agent, key string) (model.Effect, error) {
	if k.dispatchErr != nil {
		return model.Effect{}, k.dispatchErr
	}
	eff := k.dispatch
	eff.Key, eff.Run, eff.Stage, eff.Agent, eff.Dispatch = key, run.ID, s.ID, ag.Name, ag.Dispatch
	eff.Inputs = map[string]string{}
	for n, v := range k.dispatch.Inputs {
		eff.Inputs[n] = v
	}
	return eff, nil
}

// movesOf is what was asked of the kernel, without the whys.
func (k *fakeKernel) movesOf() []string {
	var out []string
	for _, m := range k.moves {
		out = append(out, m.what)
	}
	return out
}

// logged reports whether a line of the log holds text.
func (k *fakeKernel) logged(text string) bool {
	for _, l := range k.log {
		if strings.Contains(l, text) {
			return true
		}
	}
	return false
}

// newKernel is a kernel over cfg and facts of a pull request at head, at t0, reading run.
func newKernel(cfg *lang.Config, head string, runs ...*model.Run) *fakeKernel {
	facts := &model.Facts{Repo: "o/r", Viewer: "pipeline-bot[bot]",
		PR:     &model.PullRequest{Number: 7, State: model.PROpen, HeadSHA: head},
		People: model.People{Permissions: map[string]string{"dev": "write", "mallory": "read"}}}
	return &fakeKernel{world: World{Cfg: cfg, Facts: facts, Now: t0, Runs: runs}}
}

// pipeline is a pipeline "review" of stages build (an agent stage), review (an agent
// stage) and lead (a human stage), reacting as reactions say.
func pipeline(reactions ...lang.EventReaction) *lang.Pipeline {
	return &lang.Pipeline{Name: "review", OnEvents: reactions, Stages: []*lang.Stage{
		{ID: "build", Type: lang.StageAgent, Agent: "coder"},
		{ID: "review", Type: lang.StageAgent, Agent: "reviewer"},
		{ID: "lead", Type: lang.StageHuman},
	}}
}

func config(p *lang.Pipeline) *lang.Config {
	return &lang.Config{Pipelines: []*lang.Pipeline{p}, Agents: []*lang.Agent{
		{Name: "coder", Dispatch: lang.DispatchWorkflow, Workflow: "code.yml"},
		{Name: "reviewer", Dispatch: lang.DispatchComment, Body: "@reviewer look"},
		{Name: "relay", Dispatch: lang.DispatchRepositoryDispatch, EventType: "relay"},
	}}
}

// runAt is a run of p at stage at, whose stages before it passed, started on head.
func runAt(p *lang.Pipeline, at, head string) *model.Run {
	run := &model.Run{ID: "review/7/1", Pipeline: p.Name, Stage: at, Status: model.RunRunning, Head: head,
		StartedAt: t0.Add(-time.Hour), Stages: map[string]*model.StageRun{}}
	for _, s := range p.Stages {
		if s.ID == at {
			run.Stages[s.ID] = &model.StageRun{Status: model.StageWaiting, Attempt: 1}
			break
		}
		run.Stages[s.ID] = &model.StageRun{Status: model.StagePassed, Attempt: 1, Verdict: "approve", HeadSHA: head}
	}
	return run
}

func template(t *testing.T, src string) *lang.Template {
	t.Helper()
	tpl, err := lang.CompileTemplate(src, lang.Pos{Line: 1, Col: 1})
	require.Nil(t, err)
	return tpl
}
