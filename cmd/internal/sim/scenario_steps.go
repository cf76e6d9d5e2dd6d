package sim

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang/load"
)

// decodeSteps decodes a list of steps, each a mapping with one key: its kind.
func decodeSteps(d *scenarioDecoder, n *yaml.Node) ([]step, error) {
	n = deref(n)
	if n.Kind != yaml.SequenceNode {
		return nil, errorAt(d.path, n, "\"steps\" must be a list, not %s", load.DescribeNode(n))
	}
	var out []step
	for _, item := range n.Content {
		item = deref(item)
		if item.Kind != yaml.MappingNode || len(item.Content) != 2 {
			return nil, errorAt(d.path, item, "a step is a mapping with one key: its kind")
		}
		k, v := item.Content[0], item.Content[1]
		mk, ok := stepKinds[k.Value]
		if !ok {
			return nil, d.unknown(k, "", "step", slices.Sorted(maps.Keys(stepKinds)))
		}
		s := step{Kind: k.Value, Line: k.Line, Col: k.Column}
		v, later, err := d.deliverLater(k.Value, v, mk)
		if err != nil {
			return nil, err
		}
		s.Later = later
		if mk != nil {
			s.Value = mk()
			err = d.decode(v, k.Value, "", reflect.ValueOf(s.Value).Elem())
		} else {
			s.Value, err = decodeScalarStep(d, k.Value, v)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeScalarStep decodes the value of a step kind that stepKinds gives no type.
func decodeScalarStep(d *scenarioDecoder, kind string, v *yaml.Node) (any, error) {
	switch kind {
	case "deliver_held":
		return decodeHeld(d, v)
	case "redeliver":
		var i int
		if err := v.Decode(&i); err != nil || i < 1 {
			return nil, errorAt(d.path, v, "\"redeliver\" takes the number of an earlier step, counting from 1")
		}
		return i, nil
	case "advance":
		dur, err := time.ParseDuration(v.Value)
		if err != nil || dur <= 0 {
			return nil, errorAt(d.path, v, "\"advance\" takes a duration such as 25h, not %s", load.DescribeNode(v))
		}
		return dur, nil
	case "state_branch":
		v = deref(v)
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return nil, errorAt(d.path, v, "\"state_branch\" takes %s, not %s", strings.Join(stateBranchActions, " or "), load.DescribeNode(v))
		}
		if !slices.Contains(stateBranchActions, v.Value) {
			return nil, d.unknown(v, "state_branch", "action", stateBranchActions)
		}
		return stateBranchStep(v.Value), nil
	case "together":
		return decodeTogether(d, v)
	}
	return nil, errorAt(d.path, v, "step %q has no decoder", kind)
}

// decodeTogether decodes the steps of a together, refusing those it does not take.
func decodeTogether(d *scenarioDecoder, v *yaml.Node) (*togetherStep, error) {
	if deref(v).Kind != yaml.SequenceNode {
		return nil, errorAt(d.path, v, "\"together\" takes a list of steps, not %s", load.DescribeNode(deref(v)))
	}
	for _, item := range deref(v).Content {
		if item = deref(item); item.Kind == yaml.MappingNode && len(item.Content) == 2 {
			if why, ok := notTogether[item.Content[0].Value]; ok {
				return nil, errorAt(d.path, item.Content[0], "%q in together: %s", item.Content[0].Value, why)
			}
		}
	}
	inner, err := decodeSteps(d, v)
	if err != nil {
		return nil, err
	}
	if len(inner) == 0 {
		return nil, errorAt(d.path, v, "\"together\" needs at least one step")
	}
	return &togetherStep{Steps: inner}, nil
}
