package run

import (
	"fmt"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
)

// jobSummary is the job summary of one invocation: for each subject, its state comment as
// people read it (without the hidden state), and the charts of its runs when the comment
// leaves them out (it was too long for them); then the API calls the invocation made.
func jobSummary(results []subjectResult, calls map[string]int, writes int) string {
	var b strings.Builder
	for _, res := range results {
		fmt.Fprintf(&b, "## #%d\n\n%s\n", res.Number, res.Summary)
		if strings.Contains(res.Summary, "```mermaid") {
			continue
		}
		for _, c := range res.Charts {
			fmt.Fprintf(&b, "\n%s\n", c)
		}
	}
	total := 0
	for _, n := range calls {
		total += n
	}
	fmt.Fprintf(&b, "\n### API calls\n\n%d %s to GitHub (%s), %d of them content-creating.\n",
		total, Plural(total, "request", "requests"), FormatCalls(calls), writes)
	return b.String()
}

// runCharts are the Mermaid charts of st's runs that no other run started, newest first,
// each under its pipeline's name; a run whose pipeline cfg no longer has, none.
func runCharts(cfg *lang.Config, st *model.State) []string {
	if cfg == nil || st == nil {
		return nil
	}
	runs := make([]*model.Run, 0, len(st.Runs))
	for _, run := range st.Runs {
		if run != nil && run.Parent == "" {
			runs = append(runs, run)
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].StartedAt.After(runs[j].StartedAt) })
	var out []string
	for _, run := range runs {
		if p := cfg.PipelineFor(run); p != nil {
			out = append(out, fmt.Sprintf("**%s** (`%s`)\n\n```mermaid\n%s```", run.Pipeline, run.ID, graph.Mermaid(p, run)))
		}
	}
	return out
}

// callsOf are what client made so far: its requests by kind, and the content-creating ones.
func callsOf(client *ghapi.Client) (map[string]int, int) {
	if client == nil {
		return nil, 0
	}
	return client.Calls(), client.Writes()
}
