package cli

import (
	"fmt"
	"io"

	"github.com/org/pipeline-action/engine/graph"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
)

const graphUsage = `usage: pipeline-action graph [PATH] [--pipeline NAME]

Prints a Mermaid flowchart of each pipeline of the config at PATH (a config file, or a
directory holding .github/pipelines.yaml and/or .github/pipelines/*.yaml, or else
pipelines.yaml; default .), each under a "%% pipeline: NAME" comment line, or of
pipeline NAME alone.

exit codes: 0 drawn, 1 the config has errors (printed on stderr), 2 bad usage, a path
that cannot be read or an unknown pipeline
`

// graphMain prints the Mermaid flowcharts of a config's pipelines.
func graphMain(args []string, stdout, stderr io.Writer) int {
	fl := run.NewFlagSet("graph", stderr)
	name := fl.String("pipeline", "", "draw only this pipeline")
	paths, code, ok := run.ParseFlags(fl, graphUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	cfg, _, code := oneConfig("graph", graphUsage, paths, stderr)
	if cfg == nil {
		return code
	}
	pipelines := cfg.Pipelines
	if *name != "" {
		p := cfg.Pipeline(*name)
		if p == nil {
			fmt.Fprintf(stderr, "pipeline-action graph: %s\n", load.UnknownPipeline(cfg, *name))
			return 2
		}
		pipelines = []*lang.Pipeline{p}
	}
	for i, p := range pipelines {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%%%% pipeline: %s\n%s", p.Name, graph.Mermaid(p, nil))
	}
	return 0
}

// oneConfig loads the config at paths (one PATH at most; default .) for command cmd, whose
// usage is usage: the config and its files, or nil and the exit code, the errors printed.
func oneConfig(cmd, usage string, paths []string, stderr io.Writer) (*lang.Config, []load.SourceFile, int) {
	if len(paths) > 1 {
		fmt.Fprintf(stderr, "pipeline-action %s: one PATH at most, got %d\n\n%s", cmd, len(paths), usage)
		return nil, nil, 2
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	sets, code := configSets(paths, stderr)
	if code != 0 {
		return nil, nil, code
	}
	cfg, err := engine.LoadFiles(sets[0], gates.Default())
	if err != nil {
		for _, e := range run.AsErrorList(err, sets[0][0].Path) {
			fmt.Fprintln(stderr, e.Error())
		}
		return nil, nil, 1
	}
	return cfg, sets[0], 0
}
