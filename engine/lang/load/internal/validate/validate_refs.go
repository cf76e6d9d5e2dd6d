package validate

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
)

// restartFromCurrent is the `restart_from` of invalidate_and_restart that restarts the
// stage a run is at.
const restartFromCurrent = "current"

// checkAgents reports agent stages and branches, and wake_agent reactions, that name
// an agent `agents:` does not define.
func checkAgents(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	known := make([]string, 0, len(cfg.Agents))
	defined := make(map[string]bool, len(cfg.Agents))
	for _, a := range cfg.Agents {
		known = append(known, a.Name)
		defined[a.Name] = true
	}
	// where says where the reference is written; it is worked out only for a message
	check := func(pos lang.Pos, name string, where func() string) {
		if name != "" && !defined[name] && name != lang.FromCodeOwners && !f.full() {
			f.errorf(pos, KindRef, "%s", UnknownName("agent", name, where(), "agents", known))
		}
	}
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, parent *lang.Stage) {
			check(s.PosOf("agent"), s.Agent, func() string { return inStage("", s, parent) })
		})
		for _, r := range p.OnEvents {
			if r.Action == lang.ReactWakeAgent {
				check(r.PosOf("agent"), r.Agent, func() string { return fmt.Sprintf("%q of %s", lang.ReactWakeAgent, inReaction(p, r)) })
			}
		}
	}
	return f.result()
}

// checkGroups reports references to a group `groups:` does not define: `from` of a
// human stage, `settings.chatops.from`, `group` of request_reviewers and assign, and
// the group a gate condition names (`from` of human_approved).
func checkGroups(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	known := make([]string, 0, len(cfg.Groups))
	defined := make(map[string]bool, len(cfg.Groups))
	for _, g := range cfg.Groups {
		known = append(known, g.Name)
		defined[g.Name] = true
	}
	// where says where the reference is written; it is worked out only for a message
	check := func(pos lang.Pos, name string, where func() string) {
		if name != "" && !defined[name] && name != lang.FromCodeOwners && !f.full() {
			f.errorf(pos, KindRef, "%s", UnknownName("group", name, where(), "groups", known))
		}
	}
	for _, name := range cfg.Settings.ChatOpsFrom {
		check(cfg.Settings.ChatOpsFromPos, name, func() string { return `"settings.chatops.from"` })
	}
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, parent *lang.Stage) {
			check(s.PosOf("from"), s.From, func() string { return inStage("from", s, parent) })
			check(s.PosOf("config"), s.Config.Group, func() string { return inStage("group", s, parent) })
			for _, conditions := range append([][]lang.Condition{s.Conditions}, s.AnyOf...) {
				for _, c := range conditions {
					if g, ok := c.Eval.(lang.GroupRef); ok {
						check(c.Pos, g.Group(), func() string { return fmt.Sprintf("%q of check %q in stage %q", "from", c.Check, s.ID) })
					}
				}
			}
		})
	}
	return f.result()
}

// inReaction says where an on_events entry is written: `the "pull_request.closed"
// reaction of pipeline "p"`.
func inReaction(p *lang.Pipeline, r lang.EventReaction) string {
	return fmt.Sprintf("the %q reaction of pipeline %q", r.Event, p.Name)
}

// checkRestarts reports invalidate_and_restart reactions whose `invalidate` names a
// stage or branch the pipeline does not have, or whose `restart_from` is neither a
// stage of the pipeline nor "current".
func checkRestarts(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		var stages, all []string
		isStage, isAny := map[string]bool{}, map[string]bool{}
		eachStage(p, func(s, parent *lang.Stage) {
			if parent == nil {
				stages = append(stages, s.ID)
				isStage[s.ID] = true
			}
			all = append(all, s.ID)
			isAny[s.ID] = true
		})
		for _, r := range p.OnEvents {
			if r.Action != lang.ReactInvalidateAndRestart {
				continue
			}
			for _, id := range r.Invalidate {
				if f.full() {
					break
				}
				if !isAny[id] {
					f.errorf(r.PosOf("invalidate"), KindRef, "%s", unknownStage(id, "invalidate", p, r, all))
				}
			}
			if r.RestartFrom != "" && r.RestartFrom != restartFromCurrent && !isStage[r.RestartFrom] {
				f.errorf(r.PosOf("restart_from"), KindRef, "%s", unknownStage(r.RestartFrom, "restart_from", p, r,
					append(append([]string{}, stages...), restartFromCurrent)))
			}
		}
	}
	return f.result()
}

func unknownStage(id, key string, p *lang.Pipeline, r lang.EventReaction, known []string) string {
	return UnknownName("stage", id, fmt.Sprintf("%q of %s", key, inReaction(p, r)), "stages", known)
}
