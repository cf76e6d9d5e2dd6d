package sim

import (
	"fmt"
	"strconv"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
	"github.com/org/pipeline-action/state"
)

// dispatchBound is an entry of expect.dispatches: how many times an agent was dispatched,
// exactly (count) and/or at most (at_most).
type dispatchBound struct {
	Agent  string `yaml:"agent"`
	Count  *int   `yaml:"count"`
	AtMost *int   `yaml:"at_most"`
}

// checkDispatchBound checks one dispatches entry. The agent's dispatches are counted by
// checkDispatches, which reports the number found; at_most reads it there.
func (s *simulation) checkDispatchBound(report func(bool, string, string, string), x dispatchBound) {
	if x.Count != nil || x.AtMost == nil {
		s.checkDispatches(report, dispatchExpect{Agent: x.Agent, Count: x.Count})
	}
	if x.AtMost == nil {
		return
	}
	want := fmt.Sprintf("at most %d", *x.AtMost)
	if cfg, err := engine.LoadFiles(configSources(s.config), gates.Default()); err == nil && cfg.Agent(x.Agent) == nil {
		report(false, "dispatches of agent "+x.Agent, want, "no such agent in the config")
		return
	}
	unreachable := -1
	s.checkDispatches(func(_ bool, what, _, found string) {
		n, err := strconv.Atoi(found)
		if err != nil { // the agent is unknown, or its dispatches cannot be counted
			report(false, what, want, found)
			return
		}
		report(n <= *x.AtMost, what, want, found)
	}, dispatchExpect{Agent: x.Agent, Count: &unreachable})
}

// checkStateCommentBound checks comments_at_most: how many comments on subject n the
// action's identity wrote that carry a state marker, or that are the placeholder of one
// (the action keeps one per subject; a placeholder left behind is one too many).
func (s *simulation) checkStateCommentBound(report func(bool, string, string, string), who string, n int, most *int) {
	if most == nil {
		return
	}
	count := 0
	for _, c := range s.fake.Comments(s.sc.Repo, n) {
		if c.Author == ghfake.BotLogin && (state.HasMarker(c.Body) || state.IsPlaceholder(c.Body)) {
			count++
		}
	}
	report(count <= *most, who+" state comments by the action", fmt.Sprintf("at most %d", *most), fmt.Sprint(count))
}
