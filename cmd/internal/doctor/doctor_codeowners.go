package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"
)

// checkCodeOwners holds CODEOWNERS to what codeowners_approved needs of it, when the config
// uses the check: present on the default branch where GitHub looks, read whole, every line
// one GitHub reads. Teams it names are read with the organization permission members: read,
// which a workflow's GITHUB_TOKEN cannot hold: doctor cannot see which token the workflow
// gives, so it says so.
func (d *doctor) checkCodeOwners(ctx context.Context) {
	if !usesCodeOwners(d.cfg) {
		return
	}
	co, err := d.client.CodeOwners(ctx, d.branch)
	switch {
	case err != nil:
		d.add(findingUnverified, "CODEOWNERS (codeowners_approved): "+err.Error(), "run doctor again with a token that reads contents")
		return
	case co.Path == "":
		d.add(findingProblem, "codeowners_approved: no CODEOWNERS on "+d.branch+" (.github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS); the check fails closed",
			"add .github/CODEOWNERS to "+d.branch)
		return
	case co.Truncated:
		d.add(findingProblem, "codeowners_approved: "+co.Path+" is too large for GitHub to give whole; the check fails closed", "shorten "+co.Path)
		return
	case len(co.Errors) > 0:
		d.add(findingProblem, "codeowners_approved: "+co.Path+" has lines GitHub skips, and the check fails closed while it has: "+strings.Join(co.Errors, "; "),
			"fix those lines of "+co.Path)
		return
	}
	d.add(findingOK, fmt.Sprintf("codeowners_approved: %s on %s reads (%d rules)", co.Path, d.branch, len(co.Rules)), "")
	var teams []string
	for _, r := range co.Rules {
		for _, o := range r.Owners {
			if t, ok := strings.CutPrefix(o, "@"); ok && strings.Contains(t, "/") && !slices.Contains(teams, o) {
				teams = append(teams, o)
			}
		}
	}
	if len(teams) > 0 {
		d.add(findingUnverified, "codeowners_approved: "+co.Path+" names teams ("+strings.Join(teams, ", ")+"), whose members are read with the organization permission members: read",
			"give the action a GitHub App token with Members: read (the token input); with the workflow's GITHUB_TOKEN a team approves nothing")
	}
}

// usesCodeOwners says whether a gate of cfg names codeowners_approved or a human stage
// waits `from: codeowners`.
func usesCodeOwners(cfg *lang.Config) bool {
	found := false
	for _, p := range cfg.Pipelines {
		walkStages(p.Stages, func(s *lang.Stage) {
			found = found || s.From == lang.FromCodeOwners
			for _, c := range s.Conditions {
				found = found || c.BuiltinCheck() == gates.CodeOwnersApprovedName
			}
			for _, group := range s.AnyOf {
				for _, c := range group {
					found = found || c.BuiltinCheck() == gates.CodeOwnersApprovedName
				}
			}
		})
	}
	return found
}
