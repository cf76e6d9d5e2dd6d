package sim

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// triggered is events less those the repository's workflow does not run the action on,
// when the simulation plays a workflow's triggers (runsOn): GitHub starts no job for them,
// so the action never sees them. Each one left out is said in the output.
func (s *simulation) triggered(events []ghfake.Event) []ghfake.Event {
	if s.runsOn == nil {
		return events
	}
	var out []ghfake.Event
	for _, ev := range events {
		if why := s.runsOn(ev); why != "" {
			name := ev.Name
			if ev.Action != "" {
				name += "." + ev.Action
			}
			fmt.Fprintf(s.out, "   (the workflow does not run the action on %s: %s)\n", name, why)
			continue
		}
		out = append(out, ev)
	}
	return out
}
