package subject

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Multi-PR runs (`scope: multi-pr`). Their subject is an issue, as that of an issue's run:
// they start on issues.* events and keep their state on the issue. Their pull requests may
// live in other repositories:
//
//   - A pull request is named by a reference "owner/name#N" (PRRef). In a multi-PR run every
//     entry of context.prs is such a string, in the order the pull requests were associated
//     — so `{{ context.prs[0] }}` renders "acme/api#12", which merge_pr's `pr_number` and a
//     gate's `pr` take as written. A bare number, or "#N", names a pull request of the
//     subject's own repository. context.pr_number is the first pull request associated.
//   - An agent stage's `config.repo` names the repository its pull request will be in: the
//     report's outputs.pr N then means pull request N of that repository. Without it, N is a
//     pull request of the subject's repository. The association is refused, as in an
//     issue's run, when the pull request's head branch is not a branch of its own
//     repository (a fork), or the pull request is not open.
//   - The facts of every associated pull request are read at each invocation, those of other
//     repositories in Facts.Others (keyed by PRRef.Key), in the same query as the issue.
type multiPR struct{ issue }

func (multiPR) Name() string { return "multi-PR" }

// Authors: the run's pull request's, and those of every pull request of context.prs read.
func (m multiPR) Authors(s Scope, run *model.Run) []string {
	out := m.issue.Authors(s, run)
	for _, ref := range model.RunPRRefs(run, s.Own()) {
		if pr := s.PrOf(ref); pr != nil {
			out = append(out, pr.Author)
		}
	}
	return out
}

// MayHaveAuthored: a human stage's approval is for all of the run's pull requests, so none
// of their authors approves it, nor anyone while one of them was not read.
func (m multiPR) MayHaveAuthored(s Scope, run *model.Run, login string) bool {
	for _, ref := range model.RunPRRefs(run, s.Own()) {
		pr := s.PrOf(ref)
		if pr == nil || strings.EqualFold(login, pr.Author) {
			return true
		}
	}
	return m.issue.MayHaveAuthored(s, run, login)
}

// Associate: the pull request is that of the stage's `config.repo` (or the subject's
// repository), refused as RefuseRef says.
func (m multiPR) Associate(k Kernel, stage *lang.Stage, run *model.Run, outputs map[string]any) {
	v, ok := outputs["pr"]
	if !ok {
		return
	}
	s := k.Scope()
	own := s.Own()
	want, templated := AgentRepo(stage)
	if want == "" {
		want = own
	}
	ref, ok := model.ParsePRRef(v)
	if ok && ref.Repo == "" {
		ref.Repo = want
	}
	why := ""
	switch {
	case !ok:
		why = "not a pull request number or owner/name#N"
	case templated:
		why = fmt.Sprintf("config.repo of stage %q is a template; a repository whose pull request a run merges is written literally", stage.ID)
	case !model.ValidRepoName(ref.Repo) || !model.ValidRepoName(want):
		why = fmt.Sprintf("%q is not owner/name", want)
	case !strings.EqualFold(want, ref.Repo):
		why = fmt.Sprintf("stage %q opens its pull request in %s, not %s", stage.ID, want, ref.Repo)
	default:
		why = s.RefuseRef(ref)
	}
	if why != "" {
		msg := fmt.Sprintf("outputs.pr %v refused: %s", v, why)
		k.Logf("run %s: %s", run.ID, msg)
		run.Message = msg
		return
	}
	addRef(k, run, ref, own)
}

// addRef makes ref one of run's pull requests (context.prs), and its pull request when it
// has none.
func addRef(k Kernel, run *model.Run, ref model.PRRef, own string) {
	if run.Context == nil {
		run.Context = map[string]any{}
	}
	name := ref.String()
	if _, has := RunPRRef(run); !has {
		run.Context["pr_number"] = name
	}
	for _, have := range model.RunPRRefs(run, own) {
		if have.Key() == ref.Key() {
			return
		}
	}
	list, _ := run.Context["prs"].([]any)
	run.Context["prs"] = append(append([]any(nil), list...), name)
	k.Logf("run %s: pull request %s is associated with it (context.prs[%d])", run.ID, name, len(list))
}

// RefuseRef says why pull request ref cannot be associated with a multi-PR run, or "".
func (s Scope) RefuseRef(ref model.PRRef) string {
	pr := s.PrOf(ref)
	switch {
	case pr == nil:
		return fmt.Sprintf("%s is not a pull request (or it was not read)", ref)
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, ref.Repo):
		return fmt.Sprintf("the head branch of %s is not a branch of %s (a fork's pull request is not associated)", ref, ref.Repo)
	case pr.State != model.PROpen:
		return fmt.Sprintf("%s is %s", ref, pr.State)
	}
	return ""
}

// AgentRepo is the repository an agent stage's pull request will be in (`config.repo`), ""
// for the subject's. It must be written literally: a templated repo could be chosen by what
// an issue or a report says, and so could the repository whose pull request the run merges.
func AgentRepo(stage *lang.Stage) (repo string, templated bool) {
	if stage == nil {
		return "", false
	}
	for _, kv := range stage.Values {
		if kv.Key == "repo" {
			return strings.TrimSpace(kv.Value.Scalar), kv.Value.Template != nil
		}
	}
	return "", false
}

// FollowOthers arms DeadlineFollow on the run's current stage when a multi-PR run waits at a
// gate or a merge and has a pull request in another repository: their facts are read again
// at that deadline, since no event of another repository reaches this one.
func FollowOthers(s Scope, p *lang.Pipeline, run *model.Run, now time.Time) {
	if KindOf(s, p) != MultiPR || run.Status != model.RunWaiting {
		return
	}
	sr := run.Stages[run.Stage]
	stage := p.Stage(run.Stage)
	if sr == nil || stage == nil {
		return
	}
	waitsOnPRs := stage.Type == lang.StageGate || (stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR) || len(MergeBranches(stage)) > 0
	if !waitsOnPRs {
		return
	}
	other := false
	for _, ref := range model.RunPRRefs(run, s.Own()) {
		other = other || !ref.Own(s.Own())
	}
	if !other {
		return
	}
	for _, d := range sr.Deadlines {
		if d.Kind == model.DeadlineFollow {
			return
		}
	}
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineFollow, At: now.Add(model.FollowInterval)})
}

// MergeBranches are the merge_pr branches of parallel stage par.
func MergeBranches(par *lang.Stage) []*lang.Stage {
	var out []*lang.Stage
	for _, b := range par.Branches {
		if b.Type == lang.StageAction && b.Action == lang.ActionMergePR {
			out = append(out, b)
		}
	}
	return out
}
