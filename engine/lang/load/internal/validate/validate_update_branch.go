package validate

import "github.com/org/pipeline-action/engine/lang"

// checkUpdateBranch: update_branch brings a pull request's head up to date with its base, so
// it belongs to a pipeline whose subject is a pull request; in one that starts on issues it
// would have no branch to update.
func checkUpdateBranch(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	f := &findings{}
	for _, p := range cfg.Pipelines {
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
