package sim

import (
	"context"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
)

// playStep plays step n: an expectation is checked; any other step changes the world, and
// what it delivers runs through the real run path. It returns how many expectations failed.
func (s *simulation) playStep(ctx context.Context, n int, st step) (failed int, err error) {
	if e, ok := st.Value.(*expectation); ok {
		fmt.Fprintf(s.out, "── step %d: expect\n", n)
		return s.check(e), nil
	}
	if d, ok := st.Value.(*doctorStep); ok {
		return s.runDoctor(ctx, n, d), nil
	}
	if x, ok := st.Value.(*explainStep); ok {
		return s.runExplain(ctx, n, x)
	}
	ds, label, concurrent, deliver, err := s.stepDeliveries(n, st)
	// A step that delivers nothing made no request either: what the previous step's
	// invocations made is not counted again as this step's.
	s.fake.ResetStats()
	if err != nil || !deliver {
		return 0, err
	}
	mark := s.fake.Mark(s.sc.Repo) // what the action's invocations change from here
	if concurrent {
		if err := s.deliverTogether(ctx, ds); err != nil {
			return 0, err
		}
	} else {
		for _, d := range ds {
			if err := s.deliver(ctx, d); err != nil {
				return 0, err
			}
		}
	}
	if err := s.deliverCaused(ctx, mark); err != nil {
		return 0, err
	}
	if len(ds) > 0 {
		s.dropFaults()
	}
	calls := s.fake.Calls()
	s.stats = append(s.stats, stepStats{step: n, label: label, calls: s.fake.Stats(), writes: contentWrites(calls), inARow: ghfake.InARow(calls)})
	if bad := s.fake.Unexpected(); len(bad) > 0 {
		return 0, fmt.Errorf("the fake GitHub saw requests GitHub would refuse:\n  %s", strings.Join(bad, "\n  "))
	}
	if bad := s.http.takeUnexpected(); len(bad) > 0 {
		return 0, fmt.Errorf("step %d: a webhook call that no stub answers:\n  %s", n, strings.Join(bad, "\n  "))
	}
	s.printComments()
	s.printPosted()
	return 0, nil
}

// stepDeliveries applies step n to the world and returns what it delivers: new events, a
// redelivery, or held events; deliver is false when it delivers nothing (its events are
// lost or held).
func (s *simulation) stepDeliveries(n int, st step) (ds []delivery, label string, concurrent, deliver bool, err error) {
	if tg, ok := st.Value.(*togetherStep); ok {
		var lines string
		if ds, lines, err = s.applyTogether(n, tg); err != nil {
			return nil, "", false, false, err
		}
		fmt.Fprintf(s.out, "── step %d: %s\n", n, lines)
		s.sent[n], s.together[n] = ds, true
		return ds, fmt.Sprintf("together (%d %s)", len(ds), run.Plural(len(ds), "event", "events")), true, true, nil
	}
	events, label, deliver, err := s.apply(n, st)
	if err != nil {
		return nil, "", false, false, &scenarioError{s.sc.path, st.Line, st.Col, err.Error()}
	}
	fmt.Fprintf(s.out, "── step %d: %s\n", n, label)
	switch {
	case deliver && st.Later:
		s.hold(n, events)
		fmt.Fprintf(s.out, "   (held: deliver_held: %d delivers %s)\n", n, run.Plural(len(events), "it", "them"))
		return nil, label, false, false, nil
	case !deliver:
		if len(events) > 0 {
			fmt.Fprintln(s.out, "   (the event is lost: not delivered)")
		}
		return nil, label, false, false, nil
	case st.Kind == "redeliver":
		v := st.Value.(int)
		return s.sent[v], label, s.together[v], true, nil
	case st.Kind == "deliver_held":
		s.sent[n] = s.takeHeld(st.Value.(heldRef))
		return s.sent[n], label, false, true, nil
	}
	s.sent[n] = append(s.sent[n], s.fresh(s.triggered(events))...)
	return s.sent[n], label, false, true, nil
}
