package load

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// The keywords of JSON Schema an `outputs_schema` may use: enough to say which outputs an
// agent must report and of what shape, and nothing that reaches outside the config
// (`$ref`) or that a reader of the config would have to look up.
var outputsSchemaKeys = []string{"type", "properties", "required", "enum", "items", "description"}

var outputsSchemaTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

// outputsSchema compiles n, the `outputs_schema` of where; nil after an error, which is
// reported at its line.
func (sl *stageLoader) outputsSchema(n *yaml.Node, where string) *lang.OutputsSchema {
	if !sl.schemaNode(n, "outputs_schema of "+where) {
		return nil
	}
	var doc any
	if err := n.Decode(&doc); err != nil {
		sl.errorf(n, kindValue, "outputs_schema of %s: %v", where, err)
		return nil
	}
	rule := compileOutputs(doc)
	return lang.NewOutputsSchema(sl.pos(n), func(v any) error {
		if errs := rule.check(v, "", nil); len(errs) > 0 {
			return errors.New(strings.Join(errs, "; "))
		}
		return nil
	})
}

// schemaNode checks that n uses only outputsSchemaKeys, each with a value of its kind.
func (sl *stageLoader) schemaNode(n *yaml.Node, where string) bool {
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "%s must be a mapping (a JSON Schema: %s)", where, strings.Join(outputsSchemaKeys, ", "))
		return false
	}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "type":
			if !slices.Contains(outputsSchemaTypes, v.Value) {
				sl.errorf(v, kindValue, "%q of %s must be one of %s", "type", where, strings.Join(outputsSchemaTypes, ", "))
				ok = false
			}
		case "properties":
			if v.Kind != yaml.MappingNode {
				sl.errorf(v, kindType, "%q of %s must be a mapping of output names to schemas", "properties", where)
				ok = false
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ok = sl.schemaNode(v.Content[j+1], fmt.Sprintf("property %q of %s", v.Content[j].Value, where)) && ok
			}
		case "items":
			ok = sl.schemaNode(v, "items of "+where) && ok
		case "required", "enum":
			if v.Kind != yaml.SequenceNode {
				sl.errorf(v, kindType, "%q of %s must be a list", k.Value, where)
				ok = false
			}
		case "description":
		default:
			sl.errorf(k, kindKey, "unknown key %q in %s; an outputs_schema uses %s", k.Value, where, strings.Join(outputsSchemaKeys, ", "))
			ok = false
		}
	}
	return ok
}
