package validate

import "github.com/org/pipeline-action/engine/lang"

// checkReactions reports on_events reactions that can never do what they say: a wake_agent
// that names no agent in a pipeline without agent stages (there is no stage's agent to
// wake), and, as a warning, an invalidate_and_restart whose restart_from lies after a stage
// it invalidates (that stage's approval is made stale and never asked for again).
func checkReactions(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		index := map[string]int{}
		agents := false
		for i, s := range p.Stages {
			if s == nil {
				continue
			}
			index[s.ID] = i
			agents = agents || s.Type == lang.StageAgent
		}
		for _, r := range p.OnEvents {
			switch {
			case r.Action == lang.ReactWakeAgent && r.Agent == "" && !agents:
				f.errorf(r.Pos, KindKey, "%s wakes the agent of the stage the run is at, and pipeline %q has no agent stage; name one with %q",
					inReaction(p, r), p.Name, "agent")
			case r.Action == lang.ReactInvalidateAndRestart && r.RestartFrom != restartFromCurrent:
				from, ok := index[r.RestartFrom]
				if !ok {
					continue
				}
				for _, id := range r.Invalidate {
					if i, ok := index[id]; ok && i < from {
						f.warnf(r.PosOf("invalidate"), "%s makes stage %q stale but restarts from %q, after it: its approval is not asked for again",
							inReaction(p, r), id, r.RestartFrom)
					}
				}
			}
		}
	}
	return f.result()
}
