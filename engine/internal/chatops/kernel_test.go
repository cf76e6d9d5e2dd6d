package chatops

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// moved is one Move the unit asked of the kernel.
type moved struct {
	Run string
	Move
}

// fakeKernel records what the unit asks; the rules of authority are the real ones, read
// on the fake's facts.
type fakeKernel struct {
	w        World
	logs     []string
	effects  []model.Effect
	moves    []moved
	passes   map[string]bool   // run id → PassesOver
	refusals map[string]string // pipeline → why Startable refuses it
	started  []model.Input
	noStart  string // why Start does not start
}

func (k *fakeKernel) World() World { return k.w }

func (k *fakeKernel) Logf(format string, args ...any) {
	k.logs = append(k.logs, fmt.Sprintf(format, args...))
}

func (k *fakeKernel) Emit(eff model.Effect) { k.effects = append(k.effects, eff) }

func (k *fakeKernel) Rules() *authority.Rules {
	return &authority.Rules{Cfg: k.w.Cfg, Facts: k.w.Facts, Now: k.w.Now}
}

func (k *fakeKernel) HeadOf(*model.Run) string { return k.w.Facts.PR.HeadSHA }

func (k *fakeKernel) PassesOver(run *model.Run, _ string) bool { return k.passes[run.ID] }

func (k *fakeKernel) Move(run *model.Run, m Move) { k.moves = append(k.moves, moved{run.ID, m}) }

func (k *fakeKernel) Startable(name string) (*lang.Pipeline, string) {
	if why := k.refusals[name]; why != "" {
		return nil, why
	}
	if p := k.w.Cfg.Pipeline(name); p != nil {
		return p, ""
	}
	return nil, "there is no pipeline " + name
}

func (k *fakeKernel) Dispatchable(in model.Input) (*lang.Pipeline, string) {
	return k.Startable(in.Pipeline)
}

func (k *fakeKernel) Start(p *lang.Pipeline, in model.Input, why string) string {
	k.started = append(k.started, in)
	if k.noStart != "" {
		return k.noStart
	}
	k.w.St.Runs = append(k.w.St.Runs, &model.Run{ID: fmt.Sprintf("%s/7/%d", p.Name, len(k.w.St.Runs)+1), Pipeline: p.Name, Status: model.RunRunning, StartedAt: k.w.Now})
	return ""
}

// replies are the bodies of the replies asked for.
func (k *fakeKernel) replies() []string {
	var out []string
	for _, e := range k.effects {
		if e.Kind == model.EffectComment {
			out = append(out, e.Body)
		}
	}
	return out
}

// config: a gate, then a human approval by maintainers, then a merge; and a dormant
// pipeline with a trigger.
func config() *lang.Config {
	return &lang.Config{Version: 1,
		Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice", "bob", "dev"}}},
		Pipelines: []*lang.Pipeline{{
			Name: "review", HasTrigger: true, Trigger: lang.Trigger{Event: "pull_request.opened"},
			Stages: []*lang.Stage{
				{ID: "checks", Type: lang.StageGate, OnPass: "approval", OnFail: lang.TargetEscalate},
				{ID: "approval", Type: lang.StageHuman, WaitFor: lang.WaitApproval, From: "maintainers", Count: 1, OnComplete: "merge"},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
			},
		}, {
			Name: "deploy", HasTrigger: true, Dormant: true, Trigger: lang.Trigger{Event: "pull_request.labeled"},
		}}}
}

// kernel: pull request 7 by dev, with run review/7/1 at stage with status.
func kernel(stage string, status model.RunStatus) *fakeKernel {
	f := &model.Facts{Repo: "acme/widgets", Viewer: "pipeline-bot[bot]", PR: &model.PullRequest{
		Number: 7, State: model.PROpen, Author: "dev", HeadSHA: "aaaaaaaaaa"}}
	f.People = model.People{Permissions: map[string]string{"alice": "admin", "bob": "write", "dev": "write", "rita": "read", "eve": "read"}}
	run := &model.Run{ID: "review/7/1", Pipeline: "review", Stage: stage, Status: status, StartedAt: t0,
		Stages: map[string]*model.StageRun{stage: {Attempt: 1, Status: model.StageWaiting}}}
	return &fakeKernel{w: World{Cfg: config(), St: &model.State{Runs: []*model.Run{run}}, Facts: f, Now: t0.Add(time.Hour)}}
}

// say adds command comments (id, author, body), written a minute apart after t0.
func (k *fakeKernel) say(lines ...[3]string) {
	for _, l := range lines {
		var id int64
		fmt.Sscan(l[0], &id)
		k.w.Facts.PR.Comments = append(k.w.Facts.PR.Comments, model.IssueComment{ID: id, Author: l[1], Body: l[2], CreatedAt: t0.Add(time.Duration(id) * time.Minute)})
	}
}
