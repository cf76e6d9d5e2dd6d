package agent

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// continue_session on an agent stage: each new attempt of the stage asks the agent to wake
// its previous session rather than start afresh. The dispatch carries it as follows:
//
//   - workflow / repository_dispatch: the `context` input (the client_payload's context)
//     holds "continue_session": true, and "session_id": the `session_id` of the outputs of
//     the stage's last report, when that report gave one (a string of at most
//     MaxSessionID bytes); the first attempt, or one after a report without it, has none;
//   - comment: the comment ends with a line naming the session to continue;
//   - label and assign: the dispatch carries nothing more (the agent reads the pull request),
//     and the job log says so.

// OutputSessionID is the output of a report that names the agent's session.
const OutputSessionID = "session_id"

// SessionID returns the session id the stage's last report gave, or "".
func SessionID(sr *model.StageRun) string {
	if sr == nil || sr.Outputs == nil {
		return ""
	}
	id, ok := sr.Outputs[OutputSessionID].(string)
	if !ok || strings.TrimSpace(id) == "" || len(id) > model.MaxSessionID {
		return ""
	}
	return id
}

// continueSession adds what continue_session passes to the dispatch effect eff of s,
// whose context (for a workflow or repository dispatch) is ctx.
func continueSession(c stage.Context, run *model.Run, s *lang.Stage, ag *lang.Agent, eff *model.Effect, ctx map[string]any) {
	if !s.ContinueSession {
		return
	}
	sr := run.Stages[s.ID]
	id := SessionID(sr)
	switch ag.Dispatch {
	case lang.DispatchWorkflow, lang.DispatchRepositoryDispatch:
		ctx["continue_session"] = true
		if id != "" {
			ctx["session_id"] = id
		}
	case lang.DispatchComment:
		line := "<sub>Continue your previous session.</sub>"
		if id != "" {
			line = fmt.Sprintf("<sub>Continue your previous session (%s).</sub>", markdown.CodeSpan(strings.ReplaceAll(markdown.OneLine(id), "<!", "<\u200b!")))
		}
		eff.Body += "\n" + line
	default:
		c.Logf("run %s: %s: continue_session: a %s dispatch carries no session; agent %s reads the pull request", run.ID, s.ID, ag.Dispatch, ag.Name)
	}
}
