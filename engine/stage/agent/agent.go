// Package agent is the agent stage. Entering one asks for a dispatch effect by the agent's
// `dispatch` kind; the stage then waits for the agent's report, whose verdict picks the
// transition. A dispatch GitHub does not deduplicate (a workflow_dispatch, a
// repository_dispatch, a comment) is write-ahead, like a merge: it is never performed
// twice. An agent that ends without a report is an agent error, which
// `on_error: {retry, then}` handles.
package agent

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Verdicts lists the verdicts a report may carry.
var Verdicts = []string{lang.VerdictComplete, lang.VerdictFollowup, lang.VerdictFailed, lang.VerdictApprove, lang.VerdictReject, lang.VerdictRevise}

// MaxOutputs bounds the JSON of a report's outputs: they are kept in the state.
const MaxOutputs = 16 << 10

// DispatchInputs are the inputs a `dispatch: workflow` agent's workflow must declare
// (workflow_dispatch refuses inputs a workflow does not declare, and takes at most
// MaxDispatchInputs).
var DispatchInputs = []string{"run", "stage", "attempt", "subject", "action", "context", "nonce"}

// Type is the agent stage: it dispatches an agent once per attempt and waits for its report.
type Type struct {
	stage.NoDeadlines
}

// Worker is the agent.
func (Type) Worker(s *lang.Stage) (kind, name string) { return "agent", s.Agent }

// Branch moves a branch of a parallel stage as a stage.
func (t Type) Branch(c stage.Context, run *model.Run, b *lang.Stage) stage.Decision {
	return t.Step(c, run, b)
}

// Step dispatches the agent of s once per attempt, then waits for its report — or takes
// its review on the run's head as that report.
func (Type) Step(c stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	sr := run.Stages[s.ID]
	key := DispatchKey(run, s)
	ag := c.Agent(s.Agent)
	// Only a comment dispatch leaves a trace on the subject: its marker.
	if slices.Contains(run.Applied, key) || (ag != nil && ag.Dispatch == lang.DispatchComment && slices.Contains(c.Facts().PR.Posted, key)) {
		run.Applied = model.AppendOnce(run.Applied, key)
		if d, ok := review(c, run, s, ag); ok {
			return d
		}
		AwaitReport(c, run, s)
		return stage.Stay()
	}
	if ag == nil {
		return stage.Error(fmt.Sprintf("agent %q is not in the config", s.Agent))
	}
	eff, err := DispatchEffect(c, run, s, ag, key)
	if err != nil {
		return stage.Error(fmt.Sprintf("dispatching agent %q: %v", ag.Name, err))
	}
	if sr.Status == model.StageRetrying && c.Settling() {
		run.Status = model.RunWaiting
		return stage.Stay()
	}
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	// A new attempt: the last verdict no longer stands, and the next is given on this head.
	sr.HeadSHA, sr.Verdict = c.Head(), ""
	sr.AgentRun = 0 // until GitHub tells the new dispatch's
	if DispatchWriteAhead(ag.Dispatch) {
		c.Intend(sr, &eff)
	}
	c.Emit(eff)
	return stage.Stay()
}

// AwaitReport leaves an agent stage whose dispatch is done waiting for the report.
func AwaitReport(c stage.Context, run *model.Run, s *lang.Stage) {
	sr := run.Stages[s.ID]
	sr.Status = model.StageWaiting
	if sr.Message == "" {
		sr.Message = fmt.Sprintf("agent %s dispatched (attempt %d); waiting for its report", s.Agent, sr.Attempt)
		if ag := c.Agent(s.Agent); ag != nil && (ag.Dispatch == lang.DispatchLabel || ag.Dispatch == lang.DispatchAssign) {
			// A label or an assignee carries nothing: the agent reads its nonce here.
			sr.Message += fmt.Sprintf(" (`--run %s --stage %s --attempt %d --nonce %s`)", run.ID, s.ID, sr.Attempt, dispatchNonce(c, run, s.ID, sr))
		}
	}
	sr.Results = []model.GateResult{{Check: "report", Status: model.GatePending, Message: sr.Message,
		Who: "agent " + s.Agent}}
	run.Status = model.RunWaiting
}

// DispatchKey is the key of the dispatch effect of run's current attempt of s.
func DispatchKey(run *model.Run, s *lang.Stage) string {
	return fmt.Sprintf("%s/%s/%d/%s", run.ID, s.ID, run.Stages[s.ID].Attempt, model.EffectDispatch)
}

// DispatchWriteAhead reports whether a dispatch of kind must be saved as an intent
// before it is performed: GitHub deduplicates adding a label or an assignee, nothing else.
func DispatchWriteAhead(kind string) bool {
	return kind != lang.DispatchLabel && kind != lang.DispatchAssign
}
