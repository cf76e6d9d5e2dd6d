package state

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Sub-pipelines in the status: a child run is shown under the stage of its parent that
// started it — a line with the child's run and where it stands, then its stages, each
// indented one level deeper — and not again as a run of its own. A child whose parent
// is not in the state (archived, or never there) is shown as a run of its own.

// maxNestedRows bounds how deep the status nests children (the engine bounds nesting
// by settings.max_nesting; a crafted state is not followed further).
const maxNestedRows = 8

// nested reports whether run is shown under its parent's stage: its parent is in st.
func nested(st *model.State, run *model.Run) bool {
	if run.Parent == "" || st == nil {
		return false
	}
	i := strings.LastIndexByte(run.Parent, '/')
	if i < 0 {
		return false
	}
	return findRun(st, run.Parent[:i]) != nil
}

func findRun(st *model.State, id string) *model.Run {
	if st == nil || id == "" {
		return nil
	}
	for _, r := range st.Runs {
		if r != nil && r.ID == id {
			return r
		}
	}
	return nil
}

// childRows writes the rows of the child run of sr (a pipeline stage's attempt) under
// its stage row, depth levels deep.
func childRows(b *strings.Builder, cfg *lang.Config, st *model.State, sr *model.StageRun, depth int) {
	if sr == nil || sr.Child == "" || depth > maxNestedRows {
		return
	}
	indent := strings.Repeat("\u00a0\u00a0", depth) + "↳ "
	inner := strings.Repeat("\u00a0\u00a0", depth+1) + "· "
	child := findRun(st, sr.Child)
	if child == nil {
		fmt.Fprintf(b, "| %srun %s | %s | |\n", indent, code(sr.Child), "archived")
		return
	}
	fmt.Fprintf(b, "| %s**%s** · run %s | %s | %s |\n", indent, cell(child.Pipeline), code(child.ID), childHeadline(child), stamp(child.StartedAt))
	var p *lang.Pipeline
	if cfg != nil {
		p = cfg.PipelineFor(child)
	}
	for _, id := range stageOrder(p, child) {
		csr := child.Stages[id]
		if csr == nil {
			fmt.Fprintf(b, "| %s%s | · | |\n", inner, cell(id))
			continue
		}
		fmt.Fprintf(b, "| %s%s | %s | %s |\n", inner, cell(id), stageStatus(csr), stamp(csr.EnteredAt))
		childRows(b, cfg, st, csr, depth+1)
	}
}

// childHeadline is a child run's status in a table cell.
func childHeadline(run *model.Run) string {
	at := code(run.Stage)
	switch run.Status {
	case model.RunWaiting:
		return "⏳ waiting at " + at
	case model.RunRunning:
		return "▶️ running " + at
	case model.RunCompleted:
		return "✅ completed"
	case model.RunFailed:
		return "❌ failed at " + at
	case model.RunCancelled:
		return "🚫 cancelled at " + at
	case model.RunEscalated:
		return "🙋 escalated at " + at
	}
	return cell(string(run.Status)) + " at " + at
}
