package engine

import "fmt"

// restartFromCurrent is the `restart_from` of invalidate_and_restart that restarts the
// stage a run is at.
const restartFromCurrent = "current"

// checkAgents reports agent stages and branches, and wake_agent reactions, that name
// an agent `agents:` does not define.
func checkAgents(cfg *Config) (errs, warnings ErrorList) {
	var f findings
	known := make([]string, 0, len(cfg.Agents))
	for _, a := range cfg.Agents {
		known = append(known, a.Name)
	}
	check := func(pos Pos, name string) {
		if name != "" && cfg.Agent(name) == nil {
			f.errorf(pos, kindRef, "%s", unknownName("agent", name, "agents", known))
		}
	}
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, _ *Stage) { check(stagePos(s), s.Agent) })
		for _, r := range p.OnEvents {
			if r.Action == ReactWakeAgent {
				check(r.Pos, r.Agent)
			}
		}
	}
	return f.result()
}

// groupRef is implemented by compiled gate checks that name a group of `groups:`
// (`check: human_approved` with `from:`); gates.GroupRef is the same interface.
type groupRef interface {
	Group() string // "" when the check names none
}

// checkGroups reports references to a group `groups:` does not define: `from` of a
// human stage, `settings.chatops.from`, `group` of request_reviewers and assign, and
// the group a gate condition names (`from` of human_approved).
func checkGroups(cfg *Config) (errs, warnings ErrorList) {
	var f findings
	known := make([]string, 0, len(cfg.Groups))
	for _, g := range cfg.Groups {
		known = append(known, g.Name)
	}
	check := func(pos Pos, name string) {
		if name != "" && cfg.Group(name) == nil {
			f.errorf(pos, kindRef, "%s", unknownName("group", name, "groups", known))
		}
	}
	for _, name := range cfg.Settings.ChatOpsFrom {
		check(cfg.Settings.Pos, name)
	}
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, _ *Stage) {
			check(stagePos(s), s.From)
			check(stagePos(s), s.Config.Group)
			for _, c := range s.Conditions {
				checkConditionGroups(c, check)
			}
			for _, group := range s.AnyOf {
				for _, c := range group {
					checkConditionGroups(c, check)
				}
			}
		})
	}
	return f.result()
}

func checkConditionGroups(c Condition, check func(Pos, string)) {
	if g, ok := c.Eval.(groupRef); ok {
		check(c.Pos, g.Group())
	}
}

// checkRestarts reports invalidate_and_restart reactions whose `invalidate` names a
// stage or branch the pipeline does not have, or whose `restart_from` is neither a
// stage of the pipeline nor "current".
func checkRestarts(cfg *Config) (errs, warnings ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		var stages, all []string
		eachStage(p, func(s, parent *Stage) {
			if parent == nil {
				stages = append(stages, s.ID)
			}
			all = append(all, s.ID)
		})
		where := fmt.Sprintf("in pipeline %q", p.Name)
		for _, r := range p.OnEvents {
			if r.Action != ReactInvalidateAndRestart {
				continue
			}
			for _, id := range r.Invalidate {
				if !loadContains(all, id) {
					f.errorf(r.Pos, kindRef, "%s", stageNotFound("invalidate", id, where, all))
				}
			}
			if r.RestartFrom != "" && r.RestartFrom != restartFromCurrent && !loadContains(stages, r.RestartFrom) {
				f.errorf(r.Pos, kindRef, "%s", stageNotFound("restart_from", r.RestartFrom, where,
					append(append([]string{}, stages...), restartFromCurrent)))
			}
		}
	}
	return f.result()
}

func stageNotFound(key, id, where string, known []string) string {
	msg := fmt.Sprintf("%q of %q: stage %q not found %s", key, ReactInvalidateAndRestart, id, where)
	if s := suggest(id, known); s != "" {
		return fmt.Sprintf("%s; did you mean %q?", msg, s)
	}
	return fmt.Sprintf("%s; expected one of %s", msg, quoteList(known))
}
