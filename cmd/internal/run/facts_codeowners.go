package run

import (
	"context"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/gates"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/model"
)

// usesCodeOwners says whether cfg, or a config it pins, reads CODEOWNERS: a
// codeowners_approved check, or a human stage `from: codeowners`.
func usesCodeOwners(cfg *lang.Config) bool {
	if usesCheck(cfg, gates.CodeOwnersApprovedName) {
		return true
	}
	found := false
	for _, c := range append([]*lang.Config{cfg}, pinnedConfigs(cfg)...) {
		for _, p := range c.Pipelines {
			eachStageOf(p.Stages, func(s *lang.Stage) { found = found || s.From == lang.FromCodeOwners })
		}
	}
	return found
}

func eachStageOf(stages []*lang.Stage, fn func(*lang.Stage)) {
	for _, s := range stages {
		fn(s)
		eachStageOf(s.Branches, fn)
	}
}

// pinnedConfigs are the configs cfg's runs are pinned to.
func pinnedConfigs(cfg *lang.Config) []*lang.Config {
	var out []*lang.Config
	for _, c := range cfg.Pinned {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// readCodeOwners reads what codeowners_approved needs of the pull request of f: CODEOWNERS
// of the default branch (one GraphQL query), the files it changes (REST, 100 a page, unless
// read already) and the members of the teams owning them (one REST list a team). A team the
// token cannot see counts no one, and warn says why.
func readCodeOwners(ctx context.Context, client *ghapi.Client, f *model.Facts, warn func(string, ...any)) error {
	co, err := client.CodeOwners(ctx, f.DefaultBranch)
	if err != nil {
		return err
	}
	f.PR.CodeOwners = co
	if !f.PR.FilesRead {
		files, truncated, err := client.ChangedFiles(ctx, f.PR.Number)
		if err != nil {
			return err
		}
		f.PR.Files, f.PR.FilesRead, f.PR.FilesTruncated = files, true, truncated
	}
	needs := unread(f, model.Needs{Teams: model.CodeOwnersTeams(f.PR)})
	if len(needs.Teams) == 0 {
		return nil
	}
	teams, _, err := client.People(ctx, needs, warn)
	if err != nil {
		return err
	}
	if f.TeamMembers == nil {
		f.TeamMembers = map[string][]string{}
	}
	for k, v := range teams {
		f.TeamMembers[k] = v
	}
	return nil
}
