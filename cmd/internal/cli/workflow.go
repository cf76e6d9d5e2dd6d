package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/wfgen"
)

const workflowUsage = `usage: pipeline-action workflow [PATH] [--ci NAME,...]

Prints the on: block the config at PATH (a config file, or a directory holding
.github/pipelines.yaml and/or .github/pipelines/*.yaml, or else pipelines.yaml; default .)
needs of the workflow that runs the action, and the job's if:. Each event and activity type
comes with the part of the config that needs it: GitHub starts no job for the others.
Replace the on: block of .github/workflows/pipelines.yml (docs/setup.md) with it.

An agent's workflow is listed by its name: the name: of .github/workflows/FILE beside the
config, else its path, as GitHub names a workflow without one. --ci names the CI workflows
whose checks the ci_status conditions that name checks (not workflows) wait for.

exit codes: 0 printed, 1 the config has errors (printed on stderr), 2 bad usage or a path
that cannot be read
`

var workflowCmd = Command{
	Name: "workflow",
	List: "  workflow [PATH] [--ci NAME,...]\n" +
		"                          print the on: block and the job's if: the config needs (default .)\n",
	Usage: workflowUsage,
	Main:  func(_ context.Context, e Env) int { return workflowMain(e.Args, e.Stdout, e.Stderr) },
}

func workflowMain(args []string, stdout, stderr io.Writer) int {
	fl := run.NewFlagSet("workflow", stderr)
	ciList := fl.String("ci", "", "the CI workflows' names, comma-separated")
	paths, code, ok := run.ParseFlags(fl, workflowUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	cfg, files, code := oneConfig("workflow", workflowUsage, paths, stderr)
	if cfg == nil {
		return code
	}
	var src strings.Builder
	for _, f := range files {
		src.Write(f.Src)
		src.WriteByte('\n')
	}
	root := configRoot(files[0].Path)
	fmt.Fprintf(stdout, "# The on: block %s needs (pipeline-action workflow).\n", files[0].Path)
	var ci []string
	for _, n := range strings.Split(*ciList, ",") {
		if n = strings.TrimSpace(n); n != "" {
			ci = append(ci, n)
		}
	}
	fmt.Fprint(stdout, wfgen.Block(wfgen.Needs(cfg, src.String(), workflowNamer(root), ci), cfg.Settings.StateBranch))
	if len(ci) == 0 && wfgen.ChecksByName(cfg) {
		fmt.Fprintln(stdout, "# A ci_status condition waits for checks by name: add the workflows that run them to workflow_run.workflows (--ci NAME,...).")
	}
	if cond := wfgen.If(cfg, src.String()); cond != "" {
		fmt.Fprintf(stdout, "# The job's if: (with the environment of docs/setup.md, add && github.event_name != 'pull_request_review'):\n#   if: %s\n", cond)
	}
	return 0
}

// workflowNamer names the workflow of an agent's `workflow:` file as GitHub does: its name:,
// else its path.
func workflowNamer(root string) func(file string) string {
	return func(file string) string {
		rel := filepath.ToSlash(filepath.Join(".github", "workflows", file))
		text, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return rel
		}
		var wf struct {
			Name string `yaml:"name"`
		}
		if yaml.Unmarshal(text, &wf) != nil || wf.Name == "" {
			return rel
		}
		return wf.Name
	}
}
