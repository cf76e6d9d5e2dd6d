package state

import (
	"fmt"
	"slices"
	"sort"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// The branches of parallel stages in the state comment: each branch is a row of the stage
// table right under its parallel stage ("↳ id"), with its status, its verdict and who works
// on it (the agent, the action, or the sub-pipeline, whose child run is nested under the
// branch's row one level deeper than a pipeline stage's).

// branchRow is the status cell of branch id of run: its status, verdict and agent.
func branchRow(p *lang.Pipeline, run *model.Run, id string) string {
	sr := run.Stages[id]
	out := stageStatus(sr)
	if sr.Verdict != "" {
		out += " · verdict " + cell(sr.Verdict)
	}
	if b := branchStage(p, sr.Parent, id); b != nil {
		if kind, name := engine.Worker(b); kind != "" {
			out += " · " + kind + " " + cell(name)
		}
	}
	if sr.Attempt > 1 {
		out += fmt.Sprintf(" · attempt %d", sr.Attempt)
	}
	return out
}

// branchStage returns branch id of stage parent of p, or nil.
func branchStage(p *lang.Pipeline, parent, id string) *lang.Stage {
	if p == nil {
		return nil
	}
	if par := p.Stage(parent); par != nil {
		for _, b := range par.Branches {
			if b != nil && b.ID == id {
				return b
			}
		}
	}
	return nil
}

// withBranches places the branches the run recorded (stages with a parent) right after
// their parallel stage in ids, in the pipeline's branch order (else by id as ids lists them).
func withBranches(p *lang.Pipeline, run *model.Run, ids []string) []string {
	children := map[string][]string{}
	listed := map[string]bool{}
	var rest []string
	for _, id := range ids {
		if sr := run.Stages[id]; sr != nil && sr.Parent != "" {
			children[sr.Parent] = append(children[sr.Parent], id)
			continue
		}
		rest = append(rest, id)
	}
	out := make([]string, 0, len(ids))
	for _, id := range rest {
		out = append(out, id)
		listed[id] = true
		kids := children[id]
		if p != nil {
			if par := p.Stage(id); par != nil {
				// Every branch of the config, recorded or not yet, in the config's order.
				var ordered []string
				for _, b := range par.Branches {
					if b != nil && (slices.Contains(kids, b.ID) || run.Stages[b.ID] == nil) {
						ordered = append(ordered, b.ID)
					}
				}
				for _, k := range kids {
					if !slices.Contains(ordered, k) {
						ordered = append(ordered, k)
					}
				}
				kids = ordered
			}
		}
		out = append(out, kids...)
	}
	var orphans []string
	for parent := range children {
		if !listed[parent] {
			orphans = append(orphans, parent)
		}
	}
	sort.Strings(orphans)
	for _, parent := range orphans { // branches whose stage is not listed: shown as they are
		out = append(out, children[parent]...)
	}
	return out
}

// stageLabel is the first cell of a row: a branch is shown under its stage as "↳ id".
func stageLabel(p *lang.Pipeline, run *model.Run, id string) string {
	if sr := run.Stages[id]; sr != nil && sr.Parent != "" {
		return "↳ " + cell(id)
	}
	if p != nil && p.Stage(id) == nil {
		for _, s := range p.Stages {
			if branchStage(p, s.ID, id) != nil {
				return "↳ " + cell(id)
			}
		}
	}
	return cell(id)
}

// deadlineWhat says what a deadline is: a branch's timeout names its branch.
func deadlineWhat(d model.Deadline) string {
	if d.Kind == model.DeadlineBranch {
		return "branch " + code(d.Branch) + " times out"
	}
	return ""
}
