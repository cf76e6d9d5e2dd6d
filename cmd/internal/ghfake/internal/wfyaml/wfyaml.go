// Package wfyaml reads what the fake needs of a GitHub Actions workflow file.
package wfyaml

import "gopkg.in/yaml.v3"

// DispatchInputs reads the inputs a workflow declares under on.workflow_dispatch,
// and whether it has that trigger at all (`on: workflow_dispatch`, `on: [workflow_dispatch]`
// or a mapping with the key).
func DispatchInputs(text string) (map[string]bool, bool) {
	var wf map[string]yaml.Node
	if yaml.Unmarshal([]byte(text), &wf) != nil {
		return nil, false
	}
	on, ok := wf["on"]
	if !ok {
		// yaml.v3 reads a bare `on` key as the string "on" (YAML 1.2), so this is rare.
		return nil, false
	}
	switch on.Kind {
	case yaml.ScalarNode:
		return map[string]bool{}, on.Value == "workflow_dispatch"
	case yaml.SequenceNode:
		for _, n := range on.Content {
			if n.Value == "workflow_dispatch" {
				return map[string]bool{}, true
			}
		}
		return nil, false
	case yaml.MappingNode:
		for i := 0; i+1 < len(on.Content); i += 2 {
			if on.Content[i].Value != "workflow_dispatch" {
				continue
			}
			out := map[string]bool{}
			wd := on.Content[i+1]
			for j := 0; wd.Kind == yaml.MappingNode && j+1 < len(wd.Content); j += 2 {
				if wd.Content[j].Value != "inputs" {
					continue
				}
				in := wd.Content[j+1]
				for k := 0; in.Kind == yaml.MappingNode && k+1 < len(in.Content); k += 2 {
					out[in.Content[k].Value] = true
				}
			}
			return out, true
		}
	}
	return nil, false
}
