package doctor

import (
	"fmt"
	"regexp"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine/lang"
)

// runNameInput is an input a run-name reads: `${{ inputs.X }}` or `${{ github.event.inputs.X }}`.
var runNameInput = regexp.MustCompile(`\$\{\{\s*(?:github\.event\.)?inputs\.([A-Za-z0-9_-]+)\s*\}\}`)

// checkAgentRunName checks that the workflow of an agent that agent stages dispatch names the
// run, stage and attempt in its run-name (agentRunTitle): the end of a run that never
// reported is told by that title, and so is whether a dispatch whose answer was lost started
// a run. A run whose title names none may be any dispatch's, so such a dispatch is never
// sent again.
func (d *doctor) checkAgentRunName(a *lang.Agent, w *workflow, ref string) {
	if !dispatchedByStages(d.cfg, a.Name) {
		return
	}
	sample := map[string]string{"run": "p/7/1", "stage": "review", "attempt": "2"}
	title := runNameInput.ReplaceAllStringFunc(w.runName, func(m string) string {
		return sample[runNameInput.FindStringSubmatch(m)[1]]
	})
	if m := run.AgentRunTitle.FindStringSubmatch(title); w.runName != "" && m != nil && m[1] == sample["run"] && m[2] == sample["stage"] && m[3] == sample["attempt"] {
		d.add(findingOK, fmt.Sprintf("agent %s: the run-name of %s on %s names the run, stage and attempt", a.Name, w.path, ref), "")
		return
	}
	d.add(findingProblem, fmt.Sprintf("agent %s: the run-name of %s on %s does not name the run, stage and attempt: the action cannot tell its runs apart (an agent that ends without reporting; whether a dispatch GitHub did not answer started a run)", a.Name, w.path, ref),
		"set `run-name: \"agent: run ${{ inputs.run }} stage ${{ inputs.stage }} attempt ${{ inputs.attempt }}\"`")
}

// dispatchedByStages reports whether an agent stage of cfg (or a branch of a parallel one)
// dispatches agent.
func dispatchedByStages(cfg *lang.Config, agent string) bool {
	found := false
	for _, p := range cfg.Pipelines {
		walkStages(p.Stages, func(s *lang.Stage) { found = found || (s.Type == lang.StageAgent && s.Agent == agent) })
	}
	return found
}
