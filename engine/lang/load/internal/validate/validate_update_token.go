package validate

import "github.com/org/pipeline-action/engine/lang"

// checkUpdateToken warns where the config asks the action to bring a pull request's branch
// up to date itself: merge_pr's `when_behind: update` written out, and update_branch. The
// update is a commit the action pushes, and GitHub starts no workflow for a commit a
// workflow's GITHUB_TOKEN pushes, so with that token the action escalates instead; an app's
// token lifts this, which the config cannot know. The
// default when_behind is not warned of: it updates with an app token and escalates without;
// nor is keep_up_to_date, which is only ever written to be run with an app's token (doctor,
// which reads the workflow, says when it is not, and so does the job log).
func checkUpdateToken(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, _ *lang.Stage) {
			what, or := "update_branch brings the pull request", ""
			switch {
			case s.Type != lang.StageAction:
				return
			case s.Action == lang.ActionMergePR && s.Config.WhenBehind == lang.WhenBehindUpdate:
				what, or = "merge_pr with when_behind: update brings a head behind its base", ", or say when_behind: escalate"
			case s.Action != lang.ActionUpdateBranch:
				return
			}
			f.warnf(s.Pos, "stage %q of pipeline %q: %s up to date with a commit the action pushes; GitHub starts no workflow for a commit the workflow's GITHUB_TOKEN pushes, "+
				"so CI would never run on the updated head, and with that token the action escalates instead of updating; give the action a GitHub App's token (docs/tokens.md)%s",
				s.ID, p.Name, what, or)
		})
	}
	return f.result()
}
