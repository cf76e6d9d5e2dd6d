// Package condition decides the conditions of stages and parallel branches (`condition:`,
// `skip_to`) and the predicates of gates' any_of: pure functions of the facts and the
// run's expression environment.
package condition

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Decide decides c on the facts f: labels_include against the subject's labels, paths_match
// against the pull request's changed files, an expression over env (called for expressions
// only). why says what decided it. needsFiles says c tested the changed files, which f does
// not hold yet: read them, and decide again. A condition that cannot be decided is an
// error, never taken as true or false.
func Decide(c *lang.Predicate, f *model.Facts, env func() lang.Env) (ok bool, why string, needsFiles bool, err error) {
	d := decider{f: f}
	ok, why, err = d.decide(c, env)
	return ok, why, d.needsFiles, err
}

// decider decides one condition, noting whether it needed the changed files.
type decider struct {
	f          *model.Facts
	needsFiles bool
}

func (d *decider) decide(c *lang.Predicate, env func() lang.Env) (bool, string, error) {
	if c == nil {
		return true, "no condition", nil
	}
	if c.Expr != nil {
		ok, err := c.Expr.Bool(env())
		if err != nil {
			return false, "", fmt.Errorf("condition %q at %s: %v", c.Expr.Src, c.Pos, err)
		}
		verb := "does not hold"
		if ok {
			verb = "holds"
		}
		return ok, fmt.Sprintf("%q %s", c.Expr.Src, verb), nil
	}
	var pr *model.PullRequest
	if d.f != nil {
		pr = d.f.PR
	}
	for _, l := range c.LabelsInclude {
		if pr == nil {
			return false, "", fmt.Errorf("condition at %s: labels_include needs a pull request", c.Pos)
		}
		if !pr.HasLabel(l) {
			return false, fmt.Sprintf("label %q is not on the pull request", l), nil
		}
	}
	if len(c.PathsMatch) > 0 {
		if pr != nil && !pr.FilesRead {
			d.needsFiles = true
		}
		if pr == nil || !pr.FilesRead {
			return false, "", fmt.Errorf("condition at %s: the changed files of the pull request were not read", c.Pos)
		}
		if matchingFile(pr.Files, c.PathsMatch) == "" {
			if pr.FilesTruncated {
				// Files past GitHub's limit were not listed; one of them may match.
				return false, "", fmt.Errorf("condition at %s: the pull request changes more files than GitHub lists (%d); paths_match cannot be decided", c.Pos, len(pr.Files))
			}
			return false, fmt.Sprintf("no changed file matches %s", strings.Join(c.PathsMatch, ", ")), nil
		}
	}
	for i := range c.All {
		ok, why, err := d.decide(&c.All[i], env)
		if err != nil || !ok {
			return false, why, err
		}
	}
	if len(c.Any) > 0 {
		var whys []string
		for i := range c.Any {
			ok, why, err := d.decide(&c.Any[i], env)
			if err != nil {
				return false, "", err
			}
			if ok {
				return true, why, nil
			}
			whys = append(whys, why)
		}
		return false, "none of: " + strings.Join(whys, "; "), nil
	}
	var held []string
	if len(c.LabelsInclude) > 0 {
		held = append(held, "labels "+strings.Join(c.LabelsInclude, ", ")+" present")
	}
	if len(c.PathsMatch) > 0 {
		held = append(held, "a changed file matches "+strings.Join(c.PathsMatch, ", "))
	}
	if len(held) == 0 {
		held = append(held, "all hold")
	}
	return true, strings.Join(held, "; "), nil
}

// matchingFile is the first of files that one of globs matches, or "".
func matchingFile(files, globs []string) string {
	for _, f := range files {
		if slices.ContainsFunc(globs, func(g string) bool { return lang.MatchGlob(g, f) }) {
			return f
		}
	}
	return ""
}

// GuardSkips is the merge guard's view of a stage's condition: whether, on today's facts f
// alone, it decidedly does not hold (so the stage may be skipped). A condition that reads
// anything but the facts (the run's context or outputs, which the state holds) never lets
// a merge skip a stage, nor does one that cannot be decided. needsFiles says it tested the
// changed files, which f does not hold yet: read them, and ask again.
func GuardSkips(c *lang.Predicate, f *model.Facts) (skips, needsFiles bool) {
	if c == nil || !factsOnly(c) {
		return false, false
	}
	ok, _, needsFiles, err := Decide(c, f, func() lang.Env { return lang.Env{"github": model.FactsEnv(f)} })
	return err == nil && !ok, needsFiles
}

// factsOnly reports whether c reads only the facts (labels, files, the "github" root).
func factsOnly(c *lang.Predicate) bool {
	if c.Expr != nil {
		for _, r := range c.Expr.Roots() {
			if r != "github" {
				return false
			}
		}
	}
	for i := range c.All {
		if !factsOnly(&c.All[i]) {
			return false
		}
	}
	for i := range c.Any {
		if !factsOnly(&c.Any[i]) {
			return false
		}
	}
	return true
}
