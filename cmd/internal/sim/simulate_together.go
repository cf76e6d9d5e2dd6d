package sim

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/org/pipeline-action/cmd/internal/run"
)

// applyTogether applies the world changes of every step of a together, in order, and
// returns what they deliver: the events of the steps that deliver theirs (new runs), and
// the deliveries a redeliver names again (the same runs) or a deliver_held takes up.
func (s *simulation) applyTogether(n int, tg *togetherStep) ([]delivery, string, error) {
	var ds []delivery
	var labels []string
	for _, st := range tg.Steps {
		events, label, deliver, err := s.apply(n, st)
		if err != nil {
			return nil, "", &scenarioError{s.sc.path, st.Line, st.Col, err.Error()}
		}
		switch {
		case st.Kind == "redeliver":
			ds = append(ds, s.sent[st.Value.(int)]...)
		case st.Kind == "deliver_held":
			ds = append(ds, s.takeHeld(st.Value.(heldRef))...)
		case deliver && st.Later:
			s.hold(n, events)
			label += fmt.Sprintf(" (held until deliver_held: %d)", n)
		case deliver:
			ds = append(ds, s.fresh(events)...)
		case len(events) > 0:
			label += " (the event is lost: not delivered)"
		}
		labels = append(labels, label)
	}
	return ds, fmt.Sprintf("together, %d %s at once:\n     · %s", len(ds), run.Plural(len(ds), "event", "events"), strings.Join(labels, "\n     · ")), nil
}

// deliverTogether feeds the deliveries through the real run path all at once, one
// invocation each with its own token, while the fake holds every invocation's writes until
// each has read (or ended): they read the same world, then race to change it.
func (s *simulation) deliverTogether(ctx context.Context, ds []delivery) error {
	if len(ds) == 0 {
		return nil
	}
	tokens := make([]string, len(ds))
	for i := range ds {
		tokens[i] = s.fake.NewBotToken()
	}
	bar := s.fake.ArmBarrier(tokens, s.barrierTimeout)
	results := make([]invocation, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer bar.Leave(tokens[i])
			// A write the fake holds for the others' reads must not time out meanwhile.
			results[i] = s.invokeWithin(ctx, d, tokens[i], s.sc.RequestTimeout+s.barrierTimeout)
		}()
	}
	wg.Wait()
	st := bar.Disarm()
	switch {
	case st.TimedOut:
		fmt.Fprintf(s.out, "   %d invocations at once; the fake stopped holding their writes after %s, with %d of them read: they did not all race\n", len(ds), s.barrierTimeout, st.Read)
	default:
		fmt.Fprintf(s.out, "   %d invocations at once: %d of them read before any wrote (%d %s held until then)\n", len(ds), st.Read, st.Held, run.Plural(st.Held, "write", "writes"))
	}
	for _, res := range results {
		if err := s.report(res); err != nil {
			return err
		}
	}
	return nil
}
