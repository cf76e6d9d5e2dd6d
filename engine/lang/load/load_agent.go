package load

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// verdictOf maps the keys of verdict transitions to the verdicts an agent report
// carries. A `complete` verdict takes on_complete.
var verdictOf = map[string]string{
	"on_followup": lang.VerdictFollowup,
	"on_revise":   lang.VerdictRevise,
	"on_reject":   lang.VerdictReject,
	"on_approve":  lang.VerdictApprove,
	"on_failed":   lang.VerdictFailed,
}

// agentStage loads the keys of an agent stage (those every stage shares are read by
// common): the agent, what it is asked to do, its config and its verdict transitions.
func (sl *stageLoader) agentStage(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	sl.agentKeys(n, f, s, where)
	for _, k := range verdictKeys {
		e, ok := f[k]
		if !ok {
			continue
		}
		if r := sl.rule(e, where, loopRuleKeys); r != nil {
			if s.Verdicts == nil {
				s.Verdicts = map[string]*lang.Rule{}
			}
			s.Verdicts[verdictOf[k]] = r
		}
	}
}

// agentKeys loads what agent stages and agent branches share: agent, action,
// continue_session and config.
func (sl *stageLoader) agentKeys(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["agent"]; ok {
		if a, ok := sl.str(e); ok {
			if strings.TrimSpace(a) == "" {
				sl.errorf(e.val, kindValue, "%q must not be empty", "agent")
			}
			s.Agent = a
		}
	} else {
		sl.errorf(n, kindKey, "missing required key %q in %s; it names an agent of %q", "agent", where, "agents")
	}
	if e, ok := f["action"]; ok {
		s.AgentAction, _ = sl.str(e)
	}
	if e, ok := f["continue_session"]; ok {
		s.ContinueSession, _ = sl.boolean(e)
	}
	if e, ok := f["config"]; ok {
		s.Values = sl.keyValues(e, "config of "+where)
	}
	if e, ok := f["outputs_schema"]; ok {
		s.OutputsSchema = sl.outputsSchema(e.val, where)
	}
}

// pipelineStage loads the keys of a pipeline stage (or branch): the sub-pipeline to run.
// Its context, on_complete and on_error are read by common.
func (sl *stageLoader) pipelineStage(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	e, ok := f["pipeline"]
	if !ok {
		sl.errorf(n, kindKey, "missing required key %q in %s; it names the pipeline to run", "pipeline", where)
		return
	}
	s.Pipeline, _ = sl.str(e)
}
