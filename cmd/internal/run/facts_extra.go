package run

import (
	"context"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
)

// extraFacts is extraFactsWarn without a warning for the job log.
func extraFacts(ctx context.Context, client *ghapi.Client, cfg *lang.Config, f *model.Facts, workspace string) error {
	return extraFactsWarn(ctx, client, cfg, f, workspace, func(string, ...any) {})
}

// extraFactsWarn reads what only some checks need, when a config in use (cfg, or one a run is
// pinned to) names them: for branch_up_to_date, how far the head is behind its base (one
// REST call); for deployment, the head's deployments (one GraphQL query); for file_exists, whether the head holds its paths (one GraphQL query, and one
// more for patterns with wildcards in directories, which read a tree in depth: when that
// one fails, warn says why and those patterns stay unread, so that only their checks fail
// closed); for codeowners_approved and human stages `from: codeowners`, CODEOWNERS, the changed files and the teams owning them
// (readCodeOwners); for command, the commands' results, run in workspace. Facts
// of a pull request that is not open are left as they are.
func extraFactsWarn(ctx context.Context, client *ghapi.Client, cfg *lang.Config, f *model.Facts, workspace string, warn func(string, ...any)) error {
	if f == nil || f.PR == nil || f.PR.State != model.PROpen {
		return nil
	}
	runCommands(ctx, cfg, f, workspace)
	if usesCheck(cfg, "branch_up_to_date") {
		n, err := client.BehindBy(ctx, f.PR.BaseRef, f.PR.HeadSHA)
		if err != nil {
			return err
		}
		f.PR.BehindBy = &n
	}
	if usesCheck(cfg, "deployment") && f.PR.HeadSHA != "" {
		ds, err := client.Deployments(ctx, f.PR.HeadSHA)
		if err != nil {
			return err
		}
		f.PR.Deployments = ds
	}
	if usesCodeOwners(cfg) {
		if err := readCodeOwners(ctx, client, f, warn); err != nil {
			return err
		}
	}
	if paths := checkPaths(cfg); len(paths) > 0 && f.PR.HeadSHA != "" {
		if len(paths) > ghapi.MaxPathPatterns {
			paths = paths[:ghapi.MaxPathPatterns] // the others stay unread: their checks fail closed
		}
		var shallow, deep []string
		for _, p := range paths {
			if _, depth := ghapi.GlobPrefix(strings.Trim(p, "/")); depth < 0 || depth > 1 {
				deep = append(deep, p)
			} else {
				shallow = append(shallow, p)
			}
		}
		got, err := client.PathsAt(ctx, f.PR.HeadSHA, shallow)
		if err != nil {
			return err
		}
		if len(deep) > 0 {
			more, err := client.PathsAt(ctx, f.PR.HeadSHA, deep)
			if err != nil {
				warn("file_exists: %s not read: %v", strings.Join(deep, ", "), err)
			}
			for p, ok := range more {
				got[p] = ok
			}
		}
		f.PR.PathsExist = got
	}
	return nil
}

// pathsCheck is a check that names paths of the repository (file_exists).
type pathsCheck interface{ Paths() []string }

// checkPaths lists, once each, the paths and patterns the file_exists checks of the configs
// in use name (a malformed pattern, which a check does not load with, is not read).
func checkPaths(cfg *lang.Config) []string {
	var out []string
	seen := map[string]bool{}
	eachCondition(cfg, func(c lang.Condition) {
		pc, ok := c.Eval.(pathsCheck)
		if c.BuiltinCheck() != "file_exists" || !ok {
			return
		}
		for _, p := range pc.Paths() {
			if lang.ValidGlob(p) == nil && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	})
	return out
}

// usesCheck reports whether a gate of cfg, or of a config it pins, names check, itself
// or through a custom gate.
func usesCheck(cfg *lang.Config, check string) bool {
	found := false
	eachCondition(cfg, func(c lang.Condition) { found = found || c.BuiltinCheck() == check })
	return found
}

// eachCondition calls fn with every gate condition of cfg and of the configs it pins.
func eachCondition(cfg *lang.Config, fn func(lang.Condition)) {
	configs := []*lang.Config{cfg}
	oids := make([]string, 0, len(cfg.Pinned))
	for oid := range cfg.Pinned {
		oids = append(oids, oid)
	}
	sort.Strings(oids)
	for _, oid := range oids {
		if c := cfg.Pinned[oid]; c != nil {
			configs = append(configs, c)
		}
	}
	for _, c := range configs {
		for _, p := range c.Pipelines {
			for _, s := range p.Stages {
				for _, cond := range s.Conditions {
					fn(cond)
				}
				for _, group := range s.AnyOf {
					for _, cond := range group {
						fn(cond)
					}
				}
			}
		}
	}
}

// readFilesIfNeeded reads the files the pull request changes (REST, 100 a page) when res
// says a condition needed them (paths_match) and f does not hold them yet; it reports
// whether it read them, so that the caller evaluates again. Only an invocation that
// enters a stage with such a condition pays for them.
func readFilesIfNeeded(ctx context.Context, client *ghapi.Client, res model.Result, f *model.Facts) (bool, error) {
	if f != nil && f.PR == nil && f.Issue != nil {
		return readIssueFilesIfNeeded(ctx, client, res, f)
	}
	if !res.NeedsFiles || f == nil || f.PR == nil || f.PR.FilesRead {
		return false, nil
	}
	files, truncated, err := client.ChangedFiles(ctx, f.PR.Number)
	if err != nil {
		return false, err
	}
	f.PR.Files, f.PR.FilesRead, f.PR.FilesTruncated = files, true, truncated
	return true, nil
}
