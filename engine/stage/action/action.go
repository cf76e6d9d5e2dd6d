// Package action is the action stage: the action it performs (a merge, labels, a comment,
// a review request, an issue closed or opened, a branch brought up to date), asked of
// GitHub as an effect once the state is saved. A merge goes through the kernel's merge
// guard first; posting is written ahead, so that only the invocation whose save won posts.
package action

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Type is the action stage.
type Type struct {
	stage.NoDeadlines
}

// Worker names the action, as the status shows it beside the stage.
func (Type) Worker(s *lang.Stage) (kind, name string) { return "action", s.Action }

// Branch moves b, an action branch of a parallel stage, as a stage of its own.
func (t Type) Branch(c stage.Context, run *model.Run, b *lang.Stage) stage.Decision {
	return t.Step(c, run, b)
}

// Step asks for the effect of the stage's action, or moves the stage on when there is
// nothing to do, or holds it while GitHub cannot do it yet.
func (Type) Step(c stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	sr := run.Stages[s.ID]
	pr := c.Facts().PR
	key := fmt.Sprintf("%s/%s/%d/%s", run.ID, s.ID, sr.Attempt, s.Action)
	eff := model.Effect{Key: key, Run: run.ID, Stage: s.ID, Kind: model.EffectKind(s.Action), Number: pr.Number, Repo: c.OtherRepo()}
	act, ahead := s.Action, eff.Kind.WriteAhead()
	if planned(s) {
		p, dec, asked := plan(c, run, s, eff)
		if !asked {
			return dec
		}
		eff, act, ahead = p.Eff, "", p.WriteAhead
	}
	switch act {
	case lang.ActionMergePR:
		if dec, done := planMerge(c, run, s, &eff); done {
			return dec
		}
	case lang.ActionAddLabel:
		for _, l := range s.Config.Labels {
			if !pr.HasLabel(l) && !hasLabel(eff.Labels, l) {
				eff.Labels = append(eff.Labels, l)
			}
		}
		if len(eff.Labels) == 0 {
			return stage.Leave(model.StageSucceeded, s.OnSuccess, "labels present")
		}
	case lang.ActionRemoveLabel:
		for _, l := range s.Config.Labels {
			// Remove the label by its name on the PR (`WIP` for `wip`).
			if on, ok := pr.Label(l); ok && !hasLabel(eff.Labels, on) {
				eff.Labels = append(eff.Labels, on)
			}
		}
		if len(eff.Labels) == 0 {
			return stage.Leave(model.StageSucceeded, s.OnSuccess, "labels absent")
		}
	case lang.ActionComment:
		if slices.Contains(run.Applied, key) || slices.Contains(pr.Posted, key) {
			return stage.Leave(model.StageSucceeded, s.OnSuccess, "comment posted")
		}
		eff.Body = s.Config.Body
	}
	return ask(c, run, sr, eff, ahead)
}

// ask asks for eff, written ahead when performing it twice would show.
func ask(c stage.Context, run *model.Run, sr *model.StageRun, eff model.Effect, ahead bool) stage.Decision {
	if sr.Status == model.StageRetrying && c.Settling() {
		run.Status = model.RunWaiting
		return stage.Stay()
	}
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	if ahead {
		c.Intend(sr, &eff)
	}
	c.Emit(eff)
	return stage.Stay()
}

// plan asks the kernel for the plan of an action it shares with lists and notifications,
// or decides the stage when there is nothing to do or it cannot be done: asked is false then.
func plan(c stage.Context, run *model.Run, s *lang.Stage, eff model.Effect) (out stage.Plan, dec stage.Decision, asked bool) {
	if why := updateByActionsToken(c, s); why != "" {
		return stage.Plan{}, stage.Escalate(why), false
	}
	p := c.PlanAction(s, eff)
	switch {
	case strings.HasPrefix(p.Err, "not supported yet"):
		return p, stage.Abort(fmt.Sprintf("%s (stage %q at %s)", p.Err, s.ID, s.Pos)), false
	case p.Err != "":
		return p, fail(run, s, p.Err), false
	case p.Done != "":
		c.Logf("run %s: %s: %s", run.ID, s.ID, p.Done)
		return p, stage.Leave(model.StageSucceeded, s.OnSuccess, p.Done), false
	}
	return p, stage.Stay(), true
}

// planned reports whether the action of s is planned by the kernel (Actions.PlanAction).
func planned(s *lang.Stage) bool {
	switch s.Action {
	case lang.ActionLabel, lang.ActionCloseIssue, lang.ActionCreateIssue, lang.ActionNotify, lang.ActionRequestReviewers, lang.ActionAssign,
		lang.ActionSetVariable, lang.ActionSetShared, lang.ActionUpdateBranch:
		return true
	case lang.ActionComment:
		return s.Config.BodyTemplate != nil || s.Config.Target != nil
	}
	return false
}

// hasLabel reports whether labels holds label name, compared as GitHub compares labels.
func hasLabel(labels []string, name string) bool {
	return slices.ContainsFunc(labels, func(l string) bool { return lang.SameLabel(l, name) })
}

// fail fails s for why, which the stage shows.
func fail(run *model.Run, s *lang.Stage, why string) stage.Decision {
	run.Stages[s.ID].Message = why
	return stage.Fail(why)
}
