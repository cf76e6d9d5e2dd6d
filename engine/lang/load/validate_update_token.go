package load

import (
	"github.com/org/pipeline-action/engine/lang"
)

// checkUpdateToken warns where the config asks the action to bring a pull request's branch
// up to date itself: merge_pr's `when_behind: update` written out, and the update_branch
// action. The update is a commit the action pushes, and GitHub starts no workflow for a
// commit a workflow's GITHUB_TOKEN pushes: required CI would never run on the new head, so
// with that token the action escalates instead (engine/step_update_token.go). An app's
// token lifts this, which the config cannot know. The default when_behind is not warned
// of: it updates with an app token and escalates with GITHUB_TOKEN, as asked.
func checkUpdateToken(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	const why = "GitHub starts no workflow for a commit the workflow's GITHUB_TOKEN pushes, so CI would never run on the updated head, " +
		"and with that token the action escalates instead of updating; give the action a GitHub App's token (docs/tokens.md)"
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, _ *lang.Stage) {
			if s.Type != lang.StageAction {
				return
			}
			switch {
			case s.Action == lang.ActionMergePR && s.Config.WhenBehind == lang.WhenBehindUpdate:
				f.warnf(s.Pos, "stage %q of pipeline %q: merge_pr with when_behind: update brings a head behind its base up to date with a commit the action pushes; %s, or say when_behind: escalate",
					s.ID, p.Name, why)
			case s.Action == lang.ActionUpdateBranch:
				f.warnf(s.Pos, "stage %q of pipeline %q: update_branch brings the pull request up to date with a commit the action pushes; %s",
					s.ID, p.Name, why)
			}
		})
	}
	return f.result()
}
