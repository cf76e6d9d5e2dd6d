package validate

import (
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// checkTargets reports what a run could only fail on:
//   - a comment's `target` that is not `pr` or `issue` (written literally: a template could
//     send the comment anywhere), and `target: issue` in a pipeline that runs on pull
//     requests, which have no issue to comment on;
//   - a `merge_pr` branch of a parallel stage without `pr_number`, or in a pipeline that runs
//     on pull requests: a branch merges one of an issue's or multi-PR run's pull requests;
//     a pull request's own merge belongs after the join, behind the gates.
//
// A pipeline without a trigger (a sub-pipeline) runs on its parent's subject, which is
// known only at run time: there, `target: issue` in a pull request's run fails the run.
func checkTargets(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	f := &findings{}
	for _, p := range cfg.Pipelines {
		onPRs := p.Trigger.Event != "" && !p.OnIssues()
		target := func(pos lang.Pos, t string) {
			switch strings.TrimSpace(t) {
			case "", "pr":
			case "issue":
				if onPRs {
					f.errorf(pos, KindValue, "comment target \"issue\" in pipeline %q, which runs on pull requests: there is no issue to comment on; use \"pr\"", p.Name)
				}
			default:
				f.errorf(pos, KindValue, "comment target %q: a comment goes to \"pr\" (the default) or, in an issue's run, \"issue\"", t)
			}
		}
		var stage func(s *lang.Stage, branchOf *lang.Stage)
		stage = func(s *lang.Stage, branchOf *lang.Stage) {
			if s.Type == lang.StageAction && s.Action == lang.ActionComment && s.Config.Target != nil {
				target(s.Config.Target.Pos, s.Config.Target.Src)
			}
			if branchOf != nil && s.Type == lang.StageAction && s.Action == lang.ActionMergePR {
				switch {
				case onPRs:
					f.errorf(s.Pos, KindValue, "merge_pr as a branch of parallel stage %q in pipeline %q, which runs on a pull request: merge it after the join (a stage after %q), behind the gates", branchOf.ID, p.Name, branchOf.ID)
				case s.Config.PR == nil:
					f.errorf(s.Pos, KindValue, "merge_pr as a branch of parallel stage %q needs pr_number: a branch merges the pull request it names (\"{{ context.prs[0] }}\")", branchOf.ID)
				}
			}
			for _, b := range s.Branches {
				stage(b, s)
			}
		}
		for _, s := range p.Stages {
			stage(s, nil)
		}
		for _, list := range [][]lang.ActionItem{p.OnComplete, p.OnError} {
			for _, item := range list {
				if item.Action != lang.ActionComment || item.Args.Kind != lang.KindMap {
					continue
				}
				for _, kv := range item.Args.Map {
					if kv.Key == "target" {
						target(kv.Value.Pos, kv.Value.Scalar)
					}
				}
			}
		}
	}
	return f.errs, f.warnings
}
