package doctor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// Bringing a pull request's branch up to date is a commit the action pushes, and GitHub starts
// no workflow for a commit a workflow's GITHUB_TOKEN pushes: required CI would never run on the
// updated head. So with that token the action escalates instead of updating. A config that
// asks for the update itself (merge_pr's `when_behind: update` written out, an update_branch
// stage) run by a workflow that gives the action its GITHUB_TOKEN is a problem; merge_pr's
// default when_behind then escalates whenever a head is behind a base that requires it up to
// date, which doctor cannot read (branch protection needs admin), so it says so.

// actionsTokenExpr is how a workflow hands the action its own GITHUB_TOKEN.
var actionsTokenExpr = regexp.MustCompile(`(?i)^\$\{\{\s*(?:github\.token|secrets\.GITHUB_TOKEN)\s*\}\}$`)

// tokenStep is a step of a workflow that runs the action with the workflow's GITHUB_TOKEN.
type tokenStep struct{ path, command string }

// actionsTokenSteps are the steps of workflow w that run the action to handle events or
// sweep (the commands that merge) with the workflow's GITHUB_TOKEN: no `token`, or
// `${{ github.token }}` / `${{ secrets.GITHUB_TOKEN }}`.
func actionsTokenSteps(w *workflow) []tokenStep {
	var out []tokenStep
	for _, j := range w.jobs {
		for _, s := range j.steps {
			if (s.command == "run" || s.command == "sweep") && (s.token == "" || actionsTokenExpr.MatchString(s.token)) {
				out = append(out, tokenStep{path: w.path, command: s.command})
			}
		}
	}
	return out
}

// updatesAsked are where the config asks the action to update branches itself, and where
// merge_pr updates them by default.
func updatesAsked(cfg *lang.Config) (asked, byDefault []string) {
	for _, p := range cfg.Pipelines {
		if k := p.KeepUpToDate; k != nil {
			asked = append(asked, fmt.Sprintf("%s:%d:%d: pipeline %q (keep_up_to_date)", k.Pos.File, k.Pos.Line, k.Pos.Col, p.Name))
		}
		walkStages(p.Stages, func(s *lang.Stage) {
			if s.Type != lang.StageAction {
				return
			}
			where := fmt.Sprintf("%s:%d:%d: stage %q of pipeline %q", s.Pos.File, s.Pos.Line, s.Pos.Col, s.ID, p.Name)
			switch {
			case s.Action == lang.ActionUpdateBranch:
				asked = append(asked, where+" (update_branch)")
			case s.Action == lang.ActionMergePR && s.Config.WhenBehind == lang.WhenBehindUpdate:
				asked = append(asked, where+" (merge_pr, when_behind: update)")
			case s.Action == lang.ActionMergePR && s.Config.WhenBehind == "":
				byDefault = append(byDefault, where)
			}
		})
	}
	return asked, byDefault
}

// checkUpdateToken reports a config that has the action update branches run with the
// workflow's GITHUB_TOKEN.
func (d *doctor) checkUpdateToken(all []*workflow) {
	asked, byDefault := updatesAsked(d.cfg)
	if len(asked) == 0 && len(byDefault) == 0 {
		return
	}
	var steps []string
	for _, w := range all {
		for _, s := range actionsTokenSteps(w) {
			steps = append(steps, fmt.Sprintf("%s (command: %s)", s.path, s.command))
		}
	}
	if len(steps) == 0 {
		return
	}
	const fix = "give the action a GitHub App's token: `token: ${{ steps.app.outputs.token }}` from actions/create-github-app-token (docs/tokens.md)"
	with := fmt.Sprintf("%s %s the action the workflow's GITHUB_TOKEN", strings.Join(steps, ", "), map[bool]string{true: "gives", false: "give"}[len(steps) == 1])
	if len(asked) > 0 {
		d.add(findingProblem, fmt.Sprintf("%s asks the action to bring pull requests up to date, and %s: GitHub starts no workflow for a commit that token pushes, "+
			"so CI would never run on the updated head, and the action escalates instead of updating", strings.Join(asked, "; "), with),
			fix+", or say when_behind: escalate")
	}
	if len(byDefault) > 0 {
		d.add(findingUnverified, fmt.Sprintf("%s: merge_pr brings a head behind its base up to date (when_behind: update, the default), and %s: "+
			"a pull request behind a base that branch protection requires up to date escalates for a person to update it", strings.Join(byDefault, "; "), with),
			"if a base branch requires heads to be up to date, "+fix)
	}
}
