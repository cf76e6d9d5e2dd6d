package run

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/org/pipeline-action/engine/model"
)

// An agent's workflow names the run, stage and attempt it works for in its run-name, so
// that its workflow_run.completed event can tell an agent that ended without reporting:
//
//	run-name: "agent: run ${{ inputs.run }} stage ${{ inputs.stage }} attempt ${{ inputs.attempt }}"
var AgentRunTitle = regexp.MustCompile(`(?:^|\s)run (\S+) stage (\S+) attempt (\d+)(?:\s|$)`)

// agentRun recognises the workflow_run.completed of what poses as an agent's workflow:
// started by a workflow_dispatch or repository_dispatch of this repository, whose display
// title names a run, stage and attempt. Anyone with write access can start such a run, so
// it returns the run as GitHub describes it (its id, workflow file, branch, event and who
// started it), for the engine to judge whether it is the one the action dispatched — an
// agent's run that ended after its report finds its stage moved on, and is ignored — and
// the pull request.
func agentRun(name string, p payload) (*model.AgentFailure, int, bool) {
	wr := p.WorkflowRun
	if name != "workflow_run" || wr == nil || p.Action != "completed" {
		return nil, 0, false
	}
	if wr.Event != "workflow_dispatch" && wr.Event != "repository_dispatch" {
		return nil, 0, false
	}
	if p.Repository == nil || (wr.HeadRepository != nil && !wr.HeadRepository.same(&p.Repository.repoRef)) {
		return nil, 0, false
	}
	m := AgentRunTitle.FindStringSubmatch(wr.DisplayTitle)
	if m == nil || !reportRun.MatchString(m[1]) || !reportStage.MatchString(m[2]) {
		return nil, 0, false
	}
	n := runSubject(m[1])
	attempt, err := strconv.Atoi(m[3])
	if n == 0 || err != nil || attempt < 1 {
		return nil, 0, false
	}
	why := fmt.Sprintf("its workflow run %q concluded %s", wr.DisplayTitle, wr.Conclusion)
	// Whether the run is the agent's own, the engine judges from what GitHub says of it.
	return &model.AgentFailure{Run: m[1], Stage: m[2], Attempt: attempt, Why: why,
		RunID: wr.ID, Path: wr.Path, Branch: wr.HeadBranch, Event: wr.Event,
		Actor: loginOf(wr.Actor), TriggeringActor: loginOf(wr.TriggeringActor)}, n, true
}
