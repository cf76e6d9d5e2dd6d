package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// agentWorkflowNames checks the workflow of every `dispatch: workflow` agent on its ref:
// it exists, listens to workflow_dispatch and declares every input the action sends. It
// returns the names of those found, which the action's workflow_run must list.
func (d *doctor) agentWorkflowNames(ctx context.Context) []string {
	var names []string
	byRef := map[string][]*workflow{}
	for _, a := range d.cfg.Agents {
		if a.Dispatch != lang.DispatchWorkflow {
			continue
		}
		ref := a.Ref
		if ref == "" {
			ref = d.branch
		}
		all, read := byRef[ref]
		if !read {
			var ok bool
			if all, ok = d.readWorkflows(ctx, ref); !ok {
				continue
			}
			byRef[ref] = all
		}
		file := a.Workflow
		if !strings.Contains(file, "/") {
			file = ".github/workflows/" + file
		}
		i := slices.IndexFunc(all, func(w *workflow) bool { return w.path == file })
		if i < 0 {
			d.add(findingProblem, fmt.Sprintf("agent %s: no workflow %s on %s", a.Name, file, ref),
				"add the agent's workflow there (examples/*/agent workflows), or correct the agent's workflow: and ref:")
			continue
		}
		w := all[i]
		names = append(names, w.name)
		d.checkAgentWorkflow(a, w, ref)
		d.checkAgentRunName(a, w, ref)
	}
	return names
}

// checkAgentWorkflow checks that an agent's workflow can be dispatched with the inputs
// the action sends: GitHub refuses a dispatch with an input the workflow does not declare.
func (d *doctor) checkAgentWorkflow(a *lang.Agent, w *workflow, ref string) {
	if _, ok := w.on["workflow_dispatch"]; !ok {
		d.add(findingProblem, fmt.Sprintf("agent %s: %s on %s does not listen to workflow_dispatch", a.Name, w.path, ref),
			fmt.Sprintf("add `workflow_dispatch:` with the inputs %s to its `on:`", strings.Join(agent.DispatchInputs, ", ")))
		return
	}
	declared := w.inputs()
	var missing []string
	for _, in := range agent.DispatchInputs {
		if !slices.Contains(declared, in) {
			missing = append(missing, in)
		}
	}
	if len(missing) > 0 {
		d.add(findingProblem, fmt.Sprintf("agent %s: %s on %s does not declare the inputs %s, which the action sends (GitHub refuses the dispatch)",
			a.Name, w.path, ref, strings.Join(missing, ", ")),
			"declare them under `on.workflow_dispatch.inputs` (type: string)")
		return
	}
	d.add(findingOK, fmt.Sprintf("agent %s: %s on %s takes workflow_dispatch with the inputs the action sends", a.Name, w.path, ref), "")
}

// hasDeadlines reports where a pipeline has a deadline only the sweep acts on when no
// event comes: a stage timeout, a reminder, a delay or a poll; or keeps its pull requests
// up to date, which the sweep does for a push that reached no invocation.
func hasDeadlines(cfg *lang.Config) (string, bool) {
	where := ""
	for _, p := range cfg.Pipelines {
		if k := p.KeepUpToDate; k != nil && where == "" {
			where = fmt.Sprintf("%s:%d:%d (%s, keep_up_to_date)", k.Pos.File, k.Pos.Line, k.Pos.Col, p.Name)
		}
		walkStages(p.Stages, func(s *lang.Stage) {
			if where == "" && (s.Timeout > 0 || s.Reminder != nil || s.Type == lang.StageDelay || s.Poll != nil) {
				where = fmt.Sprintf("%s:%d:%d (%s.%s)", s.Pos.File, s.Pos.Line, s.Pos.Col, p.Name, s.ID)
			}
		})
	}
	return where, where != ""
}

// checkSweep checks that a workflow runs the sweep on a schedule when a pipeline has
// deadlines.
func (d *doctor) checkSweep(sweeps []*workflow) {
	where, need := hasDeadlines(d.cfg)
	if !need {
		d.add(findingOK, "sweep: no pipeline has a deadline (timeout, reminder, delay), none is needed", "")
		return
	}
	for _, w := range sweeps {
		if _, ok := w.on["schedule"]; ok {
			d.add(findingOK, fmt.Sprintf("sweep: %s runs command: sweep on a schedule (deadlines, as at %s)", w.path, where), "")
			return
		}
	}
	d.add(findingProblem, fmt.Sprintf("sweep: a pipeline has deadlines (%s) and no workflow runs command: sweep on a schedule", where),
		"add the sweep workflow (docs/setup/sweep.yml): `on: schedule` with the action's `command: sweep`")
}
