package validate

import "github.com/org/pipeline-action/engine/lang"

// checkUpdateBranch: update_branch and keep_up_to_date bring a pull request's head up to
// date with its base, so they belong to a pipeline whose subject is a pull request; in one
// that starts on issues there is no branch to update. keep_up_to_date reads the open runs
// of the pipeline it is written on: a pipeline without a trigger has none (its runs are
// part of the run that calls it).
func checkUpdateBranch(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	f := &findings{}
	for _, p := range cfg.Pipelines {
		if k := p.KeepUpToDate; k != nil && p.OnIssues() {
			f.errorf(k.Pos, KindValue, "pipeline %q: keep_up_to_date brings pull requests up to date with their base, and this pipeline's runs start on issues", p.Name)
		} else if k != nil && !p.HasTrigger {
			f.errorf(k.Pos, KindValue, "pipeline %q: keep_up_to_date applies to the pull requests of a pipeline's own runs, and this one has no trigger "+
				"(it runs only as a sub-pipeline): set keep_up_to_date on the pipelines that call it", p.Name)
		}
		if !p.OnIssues() {
			continue
		}
		for _, s := range p.Stages {
			if s.Type == lang.StageAction && s.Action == lang.ActionUpdateBranch {
				f.errorf(s.Pos, KindValue, "stage %q of pipeline %q: action %q updates a pull request's branch, and this pipeline's runs start on issues",
					s.ID, p.Name, lang.ActionUpdateBranch)
			}
		}
	}
	return f.errs, f.warnings
}
