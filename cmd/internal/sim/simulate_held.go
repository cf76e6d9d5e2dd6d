package sim

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
)

// heldRef is the value of a `deliver_held: N` step: the number of the step that held events.
type heldRef int

// hold keeps the events of step n, which says `deliver: later`, for a deliver_held step;
// each gets its run id when held.
func (s *simulation) hold(n int, events []ghfake.Event) {
	if s.held == nil {
		s.held = map[int][]delivery{}
	}
	s.held[n] = append(s.held[n], s.fresh(events)...)
}

// applyHeld checks that step v holds events not delivered yet, and labels the step.
func (s *simulation) applyHeld(n int, v heldRef) (string, error) {
	from := int(v)
	switch {
	case from >= n:
		return "", fmt.Errorf("deliver_held %d: step %d is not before this step", from, from)
	case s.heldTaken[from]:
		return "", fmt.Errorf("deliver_held %d: the events step %d held are delivered already", from, from)
	case len(s.held[from]) == 0:
		return "", fmt.Errorf("deliver_held %d: step %d held no event", from, from)
	}
	k := len(s.held[from])
	return fmt.Sprintf("deliver_held %d: the %s step %d held, late", from, run.Plural(k, "event", fmt.Sprintf("%d events", k)), from), nil
}

// takeHeld returns the events step v held, once.
func (s *simulation) takeHeld(v heldRef) []delivery {
	if s.heldTaken == nil {
		s.heldTaken = map[int]bool{}
	}
	s.heldTaken[int(v)] = true
	return s.held[int(v)]
}
