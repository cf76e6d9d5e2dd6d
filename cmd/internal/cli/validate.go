package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
)

const validateUsage = `usage: pipeline-action validate [PATH...] [--format text|github] [--strict]

PATH is a config file, or a directory holding .github/pipelines.yaml and/or
.github/pipelines/*.yaml, or else pipelines.yaml (default .). The files of one
directory load together.
Every error is printed, sorted, as path:line:col: message [kind], then every warning,
then a line for each config saying what was checked:

  checked .github/pipelines.yaml and .github/pipelines/extra.yaml: 3 pipelines, 12 stages, no problems

flags:
  --format text|github  github prints errors and warnings as workflow annotations
  --strict              fail on warnings too

exit codes: 0 valid (warnings are printed), 1 errors (or warnings with --strict),
2 bad usage or a path that cannot be read
`

// validateMain checks configs and prints every mistake as path:line:col: message [kind],
// errors first, then warnings. --format github prints workflow annotations instead.
func validateMain(args []string, stdout, stderr io.Writer) int {
	fl := run.NewFlagSet("validate", stderr)
	format := fl.String("format", "text", "output format: text or github")
	strict := fl.Bool("strict", false, "fail on warnings too")
	paths, code, ok := run.ParseFlags(fl, validateUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if *format != "text" && *format != "github" {
		fmt.Fprintf(stderr, "pipeline-action validate: unknown format %q; expected \"text\" or \"github\"\n", *format)
		return 2
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	sets, code := configSets(paths, stderr)
	var errs, warnings lang.ErrorList
	var summaries []string
	for _, files := range sets {
		cfg, err := engine.LoadFiles(files, gates.Default())
		if err != nil {
			list := run.AsErrorList(err, files[0].Path)
			errs = append(errs, list...)
			summaries = append(summaries, summary(files, nil, len(list)))
			continue
		}
		warnings = append(warnings, cfg.Warnings...)
		summaries = append(summaries, summary(files, cfg, 0))
	}
	errs.Sort()
	warnings.Sort()
	print := printText
	if *format == "github" {
		print = printGitHub
	}
	for _, e := range errs {
		print(stdout, "error", e)
	}
	for _, w := range warnings {
		print(stdout, "warning", w)
	}
	for _, s := range summaries {
		fmt.Fprintln(stdout, s)
	}
	switch {
	case code != 0:
		return code
	case len(errs) > 0, *strict && len(warnings) > 0:
		return 1
	}
	return 0
}

// summary says what validate checked in one config: its files, and how many pipelines
// and stages it has and how many warnings, or how many errors it has when it does not load.
func summary(files []load.SourceFile, cfg *lang.Config, errors int) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Path
	}
	checked := "checked " + run.JoinAnd(names) + ": "
	if cfg == nil {
		return checked + count(errors, "error", "errors")
	}
	stages := 0
	for _, p := range cfg.Pipelines {
		stages += countStages(p.Stages)
	}
	problems := "no problems"
	if n := len(cfg.Warnings); n > 0 {
		problems = count(n, "warning", "warnings")
	}
	return fmt.Sprintf("%s%s, %s, %s", checked, count(len(cfg.Pipelines), "pipeline", "pipelines"), count(stages, "stage", "stages"), problems)
}

// countStages counts stages and the branches of parallel stages.
func countStages(stages []*lang.Stage) int {
	n := len(stages)
	for _, s := range stages {
		n += countStages(s.Branches)
	}
	return n
}

func count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, run.Plural(n, one, many)) }

func printText(w io.Writer, _ string, e *lang.Error) {
	fmt.Fprintln(w, e.Error())
}

// printGitHub prints e as a workflow command, escaped as the Actions toolkit does
// (github.com/actions/toolkit, packages/core/src/command.ts).
func printGitHub(w io.Writer, level string, e *lang.Error) {
	fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d::%s\n", level,
		escapeProperty(e.Pos.File), e.Pos.Line, e.Pos.Col, escapeData(e.Message+" ["+e.Kind+"]"))
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// configSets turns the paths of the command line into the file sets to load: a
// directory gives its `.github/pipelines.yaml` and `.github/pipelines/*.yaml`; files
// named one by one load together with the other files of the same config (the same
// directory, or the same repository when they lie under its `.github`). Sets come in
// the order of the paths. A path that cannot be read is reported on stderr and makes
// the exit code 2.
func configSets(paths []string, stderr io.Writer) ([][]load.SourceFile, int) {
	code := 0
	var order []string
	sets := map[string][]load.SourceFile{}
	add := func(key string, f load.SourceFile) {
		if _, ok := sets[key]; !ok {
			order = append(order, key)
		}
		for _, g := range sets[key] {
			if g.Path == f.Path {
				return // named twice
			}
		}
		sets[key] = append(sets[key], f)
	}
	for _, path := range paths {
		info, err := os.Stat(path)
		if err != nil {
			fmt.Fprintf(stderr, "pipeline-action: %v\n", err)
			code = 2
			continue
		}
		if !info.IsDir() {
			src, err := os.ReadFile(path)
			if err != nil {
				fmt.Fprintf(stderr, "pipeline-action: %v\n", err)
				code = 2
				continue
			}
			add("file:"+configRoot(path), load.SourceFile{Path: path, Src: src})
			continue
		}
		files, err := run.ReadConfigDir(path)
		if err != nil {
			fmt.Fprintf(stderr, "pipeline-action: %v\n", err)
			code = 2
			continue
		}
		for _, f := range files {
			add("dir:"+filepath.Clean(path), f)
		}
	}
	out := make([][]load.SourceFile, 0, len(order))
	for _, k := range order {
		out = append(out, sets[k])
	}
	return out, code
}

// configRoot is the directory a config file belongs to: the repository holding
// `.github/pipelines.yaml` or `.github/pipelines/*.yaml`, else the file's directory.
func configRoot(path string) string {
	dir := filepath.Dir(filepath.Clean(path))
	switch {
	case filepath.Base(dir) == ".github":
		return filepath.Dir(dir)
	case filepath.Base(dir) == "pipelines" && filepath.Base(filepath.Dir(dir)) == ".github":
		return filepath.Dir(filepath.Dir(dir))
	}
	return dir
}
