package sim

import (
	"fmt"
	"reflect"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang/load"
)

// deliverLater takes `deliver: later` out of a step's mapping, for a step kind that has a
// deliver field: the step then delivers as usual, but its events are held (step.Later)
// until a `deliver_held` step names it. Any other deliver that is not true or false is an
// error.
func (d *scenarioDecoder) deliverLater(kind string, v *yaml.Node, mk func() any) (*yaml.Node, bool, error) {
	m := deref(v)
	if mk == nil || m.Kind != yaml.MappingNode {
		return v, false, nil
	}
	if t := reflect.TypeOf(mk()).Elem(); t.Kind() != reflect.Struct || !slices.Contains(tags(t), "deliver") {
		return v, false, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, val := m.Content[i], deref(m.Content[i+1])
		if k.Value != "deliver" {
			continue
		}
		var b bool
		if val.Kind == yaml.ScalarNode && val.Value == "later" {
			out := *m
			out.Content = slices.Concat(m.Content[:i], m.Content[i+2:])
			return &out, true, nil
		}
		if val.Kind != yaml.ScalarNode || val.Decode(&b) != nil {
			return nil, false, errorAt(d.path, val, "\"deliver\" in %s must be true, false or later, not %s", kind, load.DescribeNode(val))
		}
	}
	return v, false, nil
}

// decodeHeld decodes the value of `deliver_held: N`.
func decodeHeld(d *scenarioDecoder, v *yaml.Node) (heldRef, error) {
	var i int
	if err := v.Decode(&i); err != nil || i < 1 {
		return 0, errorAt(d.path, v, "\"deliver_held\" takes the number of an earlier step that said deliver: later, counting from 1")
	}
	return heldRef(i), nil
}

// checkHeld checks tick, and that every deliver_held names an earlier step that holds
// events (it says `deliver: later`, or is a together holding some), and that no two name
// the same one.
func (sc *scenario) checkHeld(tick *yaml.Node) error {
	if sc.Tick < 0 {
		return errorAt(sc.path, tick, "\"tick\" must not be negative")
	}
	holds := map[int]bool{}
	taken := map[int]int{}
	for i, st := range sc.Steps {
		n := i + 1
		inner := []step{st}
		if tg, ok := st.Value.(*togetherStep); ok {
			inner = tg.Steps
		}
		for _, in := range inner {
			holds[n] = holds[n] || in.Later
			ref, ok := in.Value.(heldRef)
			if !ok {
				continue
			}
			from := int(ref)
			at := func(format string, args ...any) error {
				return &scenarioError{sc.path, in.Line, in.Col, fmt.Sprintf(format, args...)}
			}
			switch {
			case from >= n:
				return at("deliver_held %d: step %d is not before this step (step %d)", from, from, n)
			case !holds[from]:
				return at("deliver_held %d: step %d holds no events; give it deliver: later", from, from)
			case taken[from] != 0:
				return at("deliver_held %d: step %d delivers the events step %d held already", from, taken[from], from)
			}
			taken[from] = n
		}
	}
	return nil
}
