package stats

import "github.com/org/pipeline-action/engine/lang"

// Wait is whom a run waits for at a stage.
type Wait string

// Whom runs wait for: people (human stages, gates on reviews or labels, an escalated run),
// CI (gates on checks, deployments, commands or an up-to-date branch), agents (agent
// stages), other (actions, delays, webhooks, sub-pipelines, stages no longer in the config).
const (
	People Wait = "people"
	CI     Wait = "ci"
	Agents Wait = "agents"
	Other  Wait = "other"
)

// Waits are the kinds of Wait in the order reports show them.
var Waits = []Wait{People, CI, Agents, Other}

// StageInfo is what the config says of a stage: its type, whom a run waits for there and
// its place in its pipeline.
type StageInfo struct {
	Type  string
	Wait  Wait
	Order int
}

// Lookup tells a stage of a pipeline; ok is false when the config has no such stage.
type Lookup func(pipeline, stage string) (info StageInfo, ok bool)

// peopleChecks and ciChecks are the built-in gate checks whose wait is people's and CI's.
var (
	peopleChecks = map[string]bool{"human_approved": true, "pr_approvals_met": true, "no_changes_requested": true, "label_present": true}
	ciChecks     = map[string]bool{"ci_status": true, "deployment": true, "branch_up_to_date": true, "command": true}
)

// FromConfig is the Lookup of cfg (nil: no stage is known).
func FromConfig(cfg *lang.Config) Lookup {
	return func(pipeline, stage string) (StageInfo, bool) {
		if cfg == nil {
			return StageInfo{}, false
		}
		p := cfg.Pipeline(pipeline)
		if p == nil {
			return StageInfo{}, false
		}
		for i, s := range p.Stages {
			if s.ID == stage {
				return StageInfo{Type: string(s.Type), Wait: waitOf(s), Order: i}, true
			}
		}
		return StageInfo{}, false
	}
}

// waitOf is whom a run waits for at s. A gate waits for people when one of its required
// checks is people's, else for CI when one is CI's; a parallel stage for whom all its
// branches wait for.
func waitOf(s *lang.Stage) Wait {
	switch s.Type {
	case lang.StageHuman:
		return People
	case lang.StageAgent:
		return Agents
	case lang.StageGate:
		return gateWait(s)
	case lang.StageParallel:
		w := Wait("")
		for _, b := range s.Branches {
			if bw := waitOf(b); w == "" || w == bw {
				w = bw
			} else {
				return Other
			}
		}
		if w == "" {
			return Other
		}
		return w
	}
	return Other
}

func gateWait(s *lang.Stage) Wait {
	conds := append([]lang.Condition(nil), s.Conditions...)
	for _, g := range s.AnyOf {
		conds = append(conds, g...)
	}
	ci := false
	for _, c := range conds {
		if c.Optional {
			continue
		}
		if peopleChecks[c.BuiltinCheck()] {
			return People
		}
		ci = ci || ciChecks[c.BuiltinCheck()]
	}
	if ci {
		return CI
	}
	return Other
}
